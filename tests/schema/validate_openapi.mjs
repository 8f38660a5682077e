// SPDX-License-Identifier: BSL-1.0
// Validates an OpenAPI document with an independent validator (@apidevtools/swagger-parser):
// the document against the OpenAPI 3.1 schema, every $ref resolved, operationIds unique.
// Then the request schemas are compiled by a second, independent JSON Schema 2020-12
// implementation (Ajv's 2020 dialect) and judge every request example of the C++ tests, which
// must get the C++ decoder's verdict (tests/export_request_examples.cpp writes them).
// Usage: node validate_openapi.mjs NPM_PREFIX_DIR OPENAPI.json EXAMPLES.json [strict]
// Exits 1 on any error. Run through validate_openapi.sh, which installs the validator.
import { createRequire } from "node:module";
import path from "node:path";
import fs from "node:fs";

const [prefixDir, file, examplesFile, mode] = process.argv.slice(2);
const strict = mode === "strict";
let exampleCount = 0;
if (!prefixDir || !file || !examplesFile) {
    console.error("usage: node validate_openapi.mjs NPM_PREFIX_DIR OPENAPI.json EXAMPLES.json [strict]");
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

// The request examples of tests/request_examples.hpp (exported by esign_tests, with the
// decoder's verdict on each): Ajv must reach the decoder's verdict on every row of this mode
// (strict or not), except on the rows marked as beyond JSON Schema, where it must reach the
// other one. An operation of the document is judged by its requestBody's component schema, the
// others (_control) by the standalone JSON Schema that esign-schema prints for them.
function checkExamples(doc) {
    const Ajv2020 = require("ajv/dist/2020").default;
    const options = { strict: false, allErrors: true, validateFormats: false };
    const ajv = new Ajv2020(options);
    ajv.addSchema({ $id: "https://esign.invalid/openapi.json", components: doc.components });
    const exported = JSON.parse(fs.readFileSync(examplesFile, "utf8"));
    const validators = new Map();
    const validatorOf = (op) => {
        if (!validators.has(op)) {
            const ref = doc.paths[op]?.post?.requestBody?.content?.["application/json"]?.schema?.$ref;
            const standalone = exported.schemas[op]?.[strict ? "strict" : "lax"];
            let v = null;
            if (ref) v = ajv.compile({ $ref: "https://esign.invalid/openapi.json" + ref });
            else if (op.startsWith("/_control/") && standalone) v = new Ajv2020(options).compile(standalone);
            validators.set(op, v);
        }
        return validators.get(op);
    };
    // The rows a JSON Schema cannot judge like the decoder: it accepts them, the decoder does not.
    // (The valijson_* marks are valijson's own departures from JSON Schema; Ajv agrees there.)
    const beyondSchema = new Set(["duplicate_member", "unique_key", "ipv6_literal"]);
    const failures = [];
    const byGap = {};
    for (const row of exported.rows) {
        if (row.strict !== strict) continue;
        const validate = validatorOf(row.op);
        if (!validate) { failures.push(`${row.op}: no schema in the document`); continue; }
        let body;
        try {
            body = JSON.parse(row.body);
        } catch {
            if (row.decoderAccepts) failures.push(`${row.op} ${row.body.slice(0, 120)}: not JSON, yet the decoder accepts it`);
            continue;
        }
        ++exampleCount;
        byGap[row.gap] = (byGap[row.gap] ?? 0) + 1;
        const expected = beyondSchema.has(row.gap) ? !row.decoderAccepts : row.decoderAccepts;
        const ok = validate(body);
        if (ok !== expected)
            failures.push(`${row.op} ${row.body.slice(0, 160)}: Ajv ${ok ? "accepts" : "refuses"}, ` +
                          `expected ${expected ? "accepts" : "refuses"} (decoder ${row.decoderAccepts ? "accepts" : "refuses"}` +
                          `, mark ${row.gap})` + (ok ? "" : ` (${ajv.errorsText(validate.errors)})`));
    }
    if ((byGap.none ?? 0) < (strict ? 10 : 400)) failures.push(`too few examples: ${JSON.stringify(byGap)}`);
    return failures;
}
