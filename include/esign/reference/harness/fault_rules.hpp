// SPDX-License-Identifier: BSL-1.0
#pragma once
// A team's fault rules (contract.md §6.5): what its next requests to an operation, or the next
// delivery attempts to one of its webhooks, get instead of the normal outcome. Rules apply in
// the order added; one whose probability is below 1 fires when a draw from the team's stream
// falls under it (so a seeded team sees the same pattern on every run); a rule is gone once
// it fired `times` times.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <esign/model/harness.hpp>
#include <esign/reference/store/ids.hpp>

namespace esign::reference {

inline constexpr std::size_t max_fault_rules = 1000;  // per team

// What a request gets from the rule that fired for it.
struct fault_decision {
    std::string fault_uuid;
    fault_action action{};
    std::optional<error_code> error;    // action error
    std::chrono::milliseconds delay{};  // action delay
};

class fault_rules {
public:
    bool full() const noexcept { return rules_.size() >= max_fault_rules; }

    // Adds a validated rule (its target checked by the caller); its uuid comes from `ids`.
    std::string add(const control_faults_add_request& r, id_source& ids) {
        fault_rule rule;
        rule.faultUuid = ids.uuid();
        rule.operation = r.operation;
        if (r.webhookUuid) rule.webhookUuid = r.webhookUuid->str();
        rule.times = r.times ? r.times->value : 1;
        rule.probability = r.probability.value_or(1.0);
        rule.action = r.action;
        rule.error = r.error;
        if (r.delayMs) rule.delayMs = r.delayMs->value;
        rules_.push_back(rule);
        return rule.faultUuid;
    }

    // The rule that fires for a request to `path`, if any (it uses up one of its times).
    std::optional<fault_decision> fire_for_operation(std::string_view path, id_source& ids) {
        auto it = fire([&](const fault_rule& r) { return r.operation && *r.operation == path; }, ids);
        if (!it) return std::nullopt;
        fault_decision d{it->faultUuid, it->action, it->error, std::chrono::milliseconds(it->delayMs.value_or(0))};
        use(*it);
        return d;
    }

    // The action of the rule that fires for a delivery attempt to `webhook_uuid`, if any.
    std::optional<fault_action> fire_for_webhook(std::string_view webhook_uuid, id_source& ids) {
        auto it = fire([&](const fault_rule& r) { return r.webhookUuid && *r.webhookUuid == webhook_uuid; }, ids);
        if (!it) return std::nullopt;
        const auto action = it->action;
        use(*it);
        return action;
    }

    bool empty() const noexcept { return rules_.empty(); }
    control_faults_list_response list() const { return {rules_}; }
    void clear() { rules_.clear(); }

private:
    // The first matching rule that fires: one draw from `ids` per matching rule with a
    // probability below 1, none for the others.
    template <class Match>
    fault_rule* fire(Match match, id_source& ids) {
        for (auto& r : rules_) {
            if (!match(r)) continue;
            if (r.probability >= 1.0 || ids.unit() < r.probability) return &r;
        }
        return nullptr;
    }

    void use(fault_rule& r) {
        if (--r.times == 0) rules_.erase(rules_.begin() + (&r - rules_.data()));
    }

    std::vector<fault_rule> rules_;
};

}  // namespace esign::reference
