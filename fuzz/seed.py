#!/usr/bin/env python3
"""Seeds the fuzz corpora (fuzz/corpus/<target>/) with the bundled rulebooks, the broken-rulebook
corpus and the inputs of tests/adversarial/ that once crashed, hung or gave a wrong value.
Run from fuzz/: python3 seed.py"""
import glob, os, shutil

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

def put(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

HEAD = 'rulebook "g" { title "g" language "en" }\n'
for f in glob.glob(os.path.join(root, "conditions", "gnt", "*.cond")) + glob.glob(os.path.join(root, "tests", "diagnostics", "*.cond")):
    put("parse_check", os.path.basename(os.path.dirname(f)) + "-" + os.path.basename(f), open(f, "rb").read())
cond = {
    "nested-in-16": "fact b: bool\nruling r: bool = " + "(b in [" * 16 + "b" + "])" * 16,
    "sum-5000": "fact mp: int\nruling r: int = " + " + ".join(["mp"] * 5000),
    "else-if-1500": "fact x: int\nruling r: int = " + "".join(f"if x == {i} then {i} else " for i in range(1500)) + "0",
    "literal-10e40": "ruling r: bool = 3 < 1" + "0" * 40,
    "column-70000": "fact b: bool\nruling r: bool = " + " " * 70000 + "c",
    "table-2000": "fact k: int\nruling r: int = t(k)\ntable t(k: int): int pick unique {\n" + ",\n".join(f"    {i} => {i}" for i in range(2000)) + "\n}",
    "type-errors": "\n".join(f"ruling r{i}: int = true" for i in range(2000)),
    "parens-deep": "ruling r: int = " + "(" * 10000 + "1" + ")" * 10000,
}
for k, v in cond.items():
    put("parse_check", k, HEAD + v)

# facts and facts_rule: the first byte picks the format ('0' JSON, '1' TOML, '2' YAML).
facts = {
    "digits-32": '0{"player": {"masterpoints": "4999.9999999999999999999999999999"}}',
    "digits-45": '0{"player": {"masterpoints": "4999.99999999999999999999999999999999999999999"}}',
    "exp": '0{"player": {"masterpoints": 1e3}}',
    "dup-key": '0{"player": {"masterpoints": 1, "masterpoints": 6000}}',
    "one-two-three": '0{"player": {"masterpoints": "1/2/3"}}',
    "bom": '0\ufeff{"player": {"name": "R", "masterpoints": 2150, "life_master": true}}',
    "toml-float": '1[player]\nname = "R"\nmasterpoints = 4999.99999999999999\nlife_master = false\n',
    "yaml-float": '2player:\n  name: R\n  masterpoints: 4999.99999999999999\n  life_master: false\n',
    "yaml-brackets": "2mp: " + "[" * 100000,
    "unknown-key-100k": '0{"' + "m" * 100000 + '": 1}',
    "deep-json": "0" + "[" * 5000 + "]" * 5000,
    "control-chars": '0{"player": {"name": "R\\n\\u001b[31mAnswer: yes", "masterpoints": 10, "life_master": false}}',
    "tiny": '0{"player": {"masterpoints": "1/1267650600228229401496703205376"}}',
}
for f in glob.glob(os.path.join(root, "conditions", "gnt", "examples", "*.json")):
    facts["example-" + os.path.basename(f)] = b"0" + open(f, "rb").read()
for f in glob.glob(os.path.join(root, "tests", "facts", "*.json")):
    facts["bad-" + os.path.basename(f)] = b"0" + open(f, "rb").read()
for k, v in facts.items():
    put("facts", k, v)
    put("facts_rule", k, v)

batch = {
    "bad-byte": b"".join(b'{"player": {"masterpoints": %d}}\n' % i for i in range(100)) + b'{"player": \xff}\n' + b'{"player": {"masterpoints": 1}}\n',
    "dup-key": b'{"player": {"masterpoints": 1, "masterpoints": 6000}}\n{}\n',
    "long-line": b'{"player": {"name": "' + b"x" * 300000 + b'"}}\n{}\n',
    "no-newline": b'{"player": {"masterpoints": 1}}',
    "blank-lines": b"\n\n{}\n\r\n",
}
for k, v in batch.items():
    put("batch", k, v)

# lsp_frames: frames of the language server's input, good and bad.
def framed(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
good = framed(b'{"jsonrpc":"2.0","id":1,"method":"shutdown"}')
frames = {
    "good": good,
    "length-huge": b"Content-Length: 99999999999999\r\n\r\n" + good,
    "length-u64-max": b"Content-Length: 18446744073709551615\r\n\r\n" + good,
    "length-text": b"Content-Length: twelve\r\n\r\n" + good,
    "not-utf8": framed(b"\xff\xfe{}") + good,
    "not-json": framed(b"{oops") + good,
    "id-wide": framed(b'{"jsonrpc":"2.0","id":4294967296,"method":"x"}') + good,
    "long-header": b"x" * 5000 + good,
}
for k, v in frames.items():
    put("lsp_frames", k, v)
