#!/usr/bin/env python3
"""Python's jsonschema on the package's JSON Schema files: the verdict of each case, for
test/contracts/python.test.ts to compare with the library's.

Reads one JSON document on standard input: {"folder": "<dist/json-schema/>", "cases": [[file, value], ...]}.
Each file is loaded as a reader would load it (json.load), checked against the draft 2020-12
meta-schema, and compiled once with Draft202012Validator, the standard format checker, and the
`pattern` of docs/other-languages.md (JSON Schema patterns are ECMA-262 regular expressions, where a
final `$` matches only at the very end; Python's `$` also matches before a final line break).
Writes one JSON document: {"jsonschema": "<version>", "verdicts": [true, false, ...]}, one per case.
Exits 3 with a message when jsonschema cannot be imported.
"""
import json
import re
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator, ValidationError, validators
except ImportError as error:  # pragma: no cover - the test reports it
    print(f"python3 cannot import jsonschema ({error}); install Debian's python3-jsonschema", file=sys.stderr)
    sys.exit(3)


def ecma_pattern(validator, pattern, instance, schema):
    """`pattern` as JSON Schema means it: a final "$" matches at the very end only (Python's \\Z)."""
    if not validator.is_type(instance, "string"):
        return
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    if not re.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Validator = validators.extend(Draft202012Validator, {"pattern": ecma_pattern})


def main() -> None:
    request = json.load(sys.stdin)
    folder = request["folder"]
    validators = {}
    verdicts = []
    for file, value in request["cases"]:
        validator = validators.get(file)
        if validator is None:
            with open(folder + file, encoding="utf-8") as handle:
                schema = json.load(handle)
            Validator.check_schema(schema)
            validator = Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
            validators[file] = validator
        verdicts.append(validator.is_valid(value))
    try:
        from importlib.metadata import version

        found = version("jsonschema")
    except Exception:  # pragma: no cover - old Pythons
        found = getattr(jsonschema, "__version__", "unknown")
    json.dump({"jsonschema": found, "verdicts": verdicts}, sys.stdout)


if __name__ == "__main__":
    main()
