// Validates an OpenAPI document with an independent validator (@apidevtools/swagger-parser):
// the document against the OpenAPI 3.1 schema, every $ref resolved, operationIds unique.
// Then every component schema is compiled by a second, independent JSON Schema 2020-12
// implementation (Ajv's 2020 dialect) and checked against example bodies whose verdict is the
// one the C++ decoder gives (tests/test_schema.cpp checks the C++ side of the same rules).
// Usage: node validate_openapi.mjs NPM_PREFIX_DIR OPENAPI.json [strict]
// Exits 1 on any error. Run through validate_openapi.sh, which installs the validator.
import { createRequire } from "node:module";
import path from "node:path";
import fs from "node:fs";

const [prefixDir, file, mode] = process.argv.slice(2);
const strict = mode === "strict";
let exampleCount = 0;
if (!prefixDir || !file) {
    console.error("usage: node validate_openapi.mjs NPM_PREFIX_DIR OPENAPI.json");
    process.exit(2);
}
const require = createRequire(path.join(path.resolve(prefixDir), "package.json"));
const SwaggerParser = require("@apidevtools/swagger-parser");

const text = fs.readFileSync(file, "utf8");
const doc = JSON.parse(text);
if (doc.openapi !== "3.1.0") {
    console.error(`expected openapi 3.1.0, got ${doc.openapi}`);
    process.exit(1);
}
try {
    // validate() checks the document against the official OpenAPI 3.1 JSON Schema, resolves
    // every $ref (a dangling one is an error) and checks operationIds and parameters.
    const api = await SwaggerParser.validate(JSON.parse(text));
    const paths = Object.keys(api.paths ?? {});
    // Every regular expression of the document must compile as ECMA-262 with the unicode flag
    // (what JSON Schema validators use).
    let patterns = 0;
    const walk = (v) => {
        if (Array.isArray(v)) return v.forEach(walk);
        if (v && typeof v === "object") {
            if (typeof v.pattern === "string") {
                new RegExp(v.pattern, "u");
                ++patterns;
            }
            Object.values(v).forEach(walk);
        }
    };
    walk(doc);
    const failures = checkExamples(doc);
    if (failures.length) throw new Error("example bodies:\n  " + failures.join("\n  "));
    console.log(`${file}: valid OpenAPI ${api.openapi} (${paths.length} paths, ` +
        `${Object.keys(api.components?.schemas ?? {}).length} component schemas, ${patterns} patterns, ` +
        `${exampleCount} example bodies${strict ? ", strict" : ""})`);
} catch (err) {
    console.error(`${file}: INVALID: ${err.message}`);
    process.exit(1);
}

// Example bodies and whether the decoder accepts them.
function checkExamples(doc) {
    const Ajv2020 = require("ajv/dist/2020").default;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: "https://esign.invalid/openapi.json", components: doc.components });
    const failures = [];
    const validators = {};
    for (const name of Object.keys(doc.components.schemas))
        validators[name] = ajv.compile({ $ref: `https://esign.invalid/openapi.json#/components/schemas/${name}` });
    const uuid = "123e4567-e89b-42d3-a456-426614174000";
    const recipient = { type: "manual", email: "ada@example.com", firstname: "Ada", lastname: "L" };
    const examples = [
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: [recipient] }, true],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: [] }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: Array(51).fill(recipient) }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid.slice(1), recipients: [recipient] }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: [{ ...recipient, email: "ada@" }] }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: [{ ...recipient, type: "auto" }] }, false],
        ["EnvelopeAddRecipientsRequest",
         { envelopeUuid: uuid, recipients: [{ ...recipient, email: "a".repeat(120) + "@example.com" }] }, false],
        ["EnvelopeAddRecipientsRequest", { envelopeUuid: uuid, recipients: [recipient], extra: 1 }, !strict],
        ["WorkspaceCreateRequest", { name: "Sales" }, true],
        ["WorkspaceCreateRequest", { name: "" }, false],
        ["WorkspaceCreateRequest", { name: "x".repeat(101) }, false],
        ["WorkspaceCreateRequest", { name: "\u00e9".repeat(100) }, true],  // code points, not bytes
        ["WorkspaceCreateRequest", { name: "Sales", colorHex: "#a1b2c3" }, true],
        ["WorkspaceCreateRequest", { name: "Sales", colorHex: "#a1b2" }, false],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: { customInvitationMessage: null } }, true],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: { customInvitationMessage: 5 } }, false],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: { expirationPeriod: 90 } }, true],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: { expirationPeriod: 91 } }, false],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: { expirationPeriod: 1.5 } }, false],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid, update: {} }, true],
        ["EnvelopeUpdateRequest", { envelopeUuid: uuid }, false],
        ["EnvelopeAddBlocksRequest",
         { envelopeUuid: uuid, documentUuid: uuid, blocks: [{ page: "1", x: 1, y: 2.5, type: "text", text: "t", defaultValue: true }] }, true],
        ["EnvelopeAddBlocksRequest",
         { envelopeUuid: uuid, documentUuid: uuid, blocks: [{ page: "p1", x: 1, y: 2, type: "text", text: "t" }] }, false],
        ["EnvelopeAddBlocksRequest",
         { envelopeUuid: uuid, documentUuid: uuid, blocks: [{ page: "1", x: 1, y: 2, type: "text", text: "t", defaultValue: null }] }, false],
        ["WebhookUpdateRequest", { uuid, secret: null, contentType: "application/json" }, true],
        ["WebhookUpdateRequest", { uuid, contentType: "text/plain" }, false],
        ["WebhookUpdateRequest", { uuid, url: "not a uri" }, false],
        ["LogsListRequest", { category: "envelope", limit: 50 }, true],
        ["LogsListRequest", { category: "envelope", limit: 51 }, false],
        ["UtilsWhoamiRequest", {}, true],
    ];
    for (const [name, body, expected] of examples) {
        ++exampleCount;
        const validate = validators[name];
        if (!validate) { failures.push(`no component ${name}`); continue; }
        const ok = validate(body);
        if (ok !== expected)
            failures.push(`${name} ${JSON.stringify(body).slice(0, 120)}: ${ok ? "accepted" : "refused"}, ` +
                          `the decoder ${expected ? "accepts" : "refuses"} it` +
                          (ok ? "" : ` (${ajv.errorsText(validate.errors)})`));
    }
    return failures;
}
