// SPDX-License-Identifier: BSL-1.0
// esign-schema: prints the OpenAPI 3.1 document of the public interface, or the JSON Schema of
// one operation's request.
//   esign-schema [--strict] [--pretty]                  the OpenAPI document
//   esign-schema [--strict] [--pretty] PATH             the request schema of PATH, e.g. /public/envelope/get
//   esign-schema [--strict] [--pretty] --response PATH  the response schema of PATH
//   esign-schema [--strict] [--pretty] NAME             by component name, e.g. EnvelopeGetRequest
// --strict: unknown members refused (additionalProperties false), like the server's --strict.
#include <iostream>
#include <string>
#include <string_view>

#include <boost/json/serialize.hpp>

#include <esign/schema/openapi.hpp>

namespace {

void pretty(std::ostream& os, const boost::json::value& v, const std::string& indent = {});

// An object's members or an array's elements between `open` and `close`, one to a line, each
// written by `item(x, its indent)` a level deeper.
template <class Items, class Item>
void pretty_items(std::ostream& os, const Items& items, char open, char close, const std::string& indent, Item item) {
    if (items.empty()) {
        os << open << close;
        return;
    }
    os << open << '\n';
    const std::string deeper = indent + "  ";
    std::size_t left = items.size();
    for (const auto& x : items) {
        os << deeper;
        item(x, deeper);
        os << (--left ? ",\n" : "\n");
    }
    os << indent << close;
}

void pretty(std::ostream& os, const boost::json::value& v, const std::string& indent) {
    if (const auto* o = v.if_object()) {
        pretty_items(os, *o, '{', '}', indent, [&](const boost::json::key_value_pair& m, const std::string& deeper) {
            os << boost::json::serialize(boost::json::value(m.key())) << ": ";
            pretty(os, m.value(), deeper);
        });
    } else if (const auto* a = v.if_array()) {
        pretty_items(os, *a, '[', ']', indent,
                     [&](const boost::json::value& x, const std::string& deeper) { pretty(os, x, deeper); });
    } else {
        os << boost::json::serialize(v);
    }
}

int usage(std::ostream& os, int rc) {
    // In the shape cmake/help_to_man.py reads: the installed man page is this text.
    os << "usage: esign-schema [--strict] [--pretty] [--response] [PATH | NAME]\n"
          "\n"
          "The JSON Schemas of the esign API's requests and responses, made from esign's types.\n"
          "\n"
          "Without an argument: the OpenAPI 3.1 document of the public operations. PATH (for\n"
          "example /public/envelope/get): the JSON Schema of that operation's request (with\n"
          "--response, of its response). NAME: the JSON Schema of that type, an operation's\n"
          "request or response (EnvelopeGetRequest, EnvelopeGetResponse) or ErrorBody. Written\n"
          "on stdout; exit status 1 for an unknown PATH or NAME, 2 for a bad command line.\n"
          "\n"
          "options:\n"
          "  --strict      unknown members refused (additionalProperties: false), as the\n"
          "                server's --strict refuses them\n"
          "  --pretty      indented output\n"
          "  --response    with PATH: the schema of the operation's response, not its request\n"
          "  --help        this text (also -h)\n";
    return rc;
}

}  // namespace

int main(int argc, char** argv) {
    esign::schema::schema_options options;
    bool want_pretty = false, response = false;
    std::string target;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "--strict")
            options.strict = true;
        else if (arg == "--pretty")
            want_pretty = true;
        else if (arg == "--response")
            response = true;
        else if (arg == "-h" || arg == "--help")
            return usage(std::cout, 0);
        else if (!arg.empty() && arg[0] == '-')
            return usage(std::cerr, 2);
        else if (target.empty())
            target = arg;
        else
            return usage(std::cerr, 2);
    }

    boost::json::value out;
    if (target.empty()) {
        esign::schema::openapi_options o;
        o.schema = options;
        out = esign::schema::openapi_document(o);
    } else {
        bool found = false;
        esign::for_each_operation([&](const auto& op) {
            if (found) return;
            using op_type = std::remove_cvref_t<decltype(op)>;
            std::string base = esign::schema::operation_base_name(op.path);
            bool by_path = op.path == target;
            bool by_request = target == base + "Request" || target == base;
            bool by_response = target == base + "Response";
            if (!by_path && !by_request && !by_response) return;
            found = true;
            if ((by_path && response) || by_response)
                out = esign::schema::json_schema<typename op_type::response_type>(options);
            else
                out = esign::schema::json_schema<typename op_type::request_type>(options);
        });
        if (!found && target == "ErrorBody") {
            out = esign::schema::json_schema<esign::error_body>(options);
            found = true;
        }
        if (!found) {
            std::cerr << "esign-schema: unknown operation path or type: " << target << "\n";
            return 1;
        }
    }
    if (want_pretty)
        pretty(std::cout, out);
    else
        std::cout << boost::json::serialize(out);
    std::cout << "\n";
    return 0;
}
