// SPDX-License-Identifier: BSL-1.0
// A part of the reference backend's definitions (see core.cpp): the runners of part 7 of the
// table's rows (esign/reference/backend/runners.hpp).
#include <esign/reference/backend/runners.hpp>

template void esign::reference::backend::add_runners<7>(std::span<esign::reference::backend::runner>);
