#!/usr/bin/env python3
"""Writes OUT/kernels.h, kcheck.cpp and kbench.cpp: session 38's attention harness
(session38/attention/), turned to compare two versions of
scripts/patches/llama.cpp-fattn-avx512.patch, each kernel in a namespace of its own (oldk, the
shipped one, against newk), instead of session 22's kernel against the current one.

    python3 make_kernels.py OLD_PATCH NEW_PATCH OUT
"""
import sys
from pathlib import Path

S38 = Path(__file__).resolve().parents[2] / "session38" / "attention"
sys.path.insert(0, str(S38))
from make_kernels import added_code, preamble  # noqa: E402  (session 38's generator)

USING = '#include "kernels.h"\nusing newk::Row; using newk::Scratch; using newk::attend_rows;'


def edit(text, pairs):
    for old, new in pairs:
        if old not in text:
            raise SystemExit(f"session 38's harness changed: cannot find {old!r}")
        text = text.replace(old, new)
    return text


def kcheck():
    return edit((S38 / "kcheck.cpp").read_text(), [
        ("// The current kernel against session 22's", "// newk against oldk (session 50's make_kernels.py)"),
        ('#include "kernels.h"', USING),
        ("    set_rows(want);\n    BY_ROWS(OLD)",
         "    set_rows(want);\n    oldk::Scratch old_scratch{scratch.S, scratch.K, scratch.live};\n"
         "    oldk::Row old_rows[6];\n"
         "    for (int r = 0; r < R; ++r) old_rows[r] = {rows[r].q, rows[r].mask, rows[r].out};\n"
         "    BY_ROWS(OLD)"),
        ("attend_rows_old<RR>(rows, kb, row * 2, vb, row * 2, n_kv, D, D, 0.125f, S.data())",
         "oldk::attend_rows<RR>(old_rows, kb, row * 2, vb, row * 2, n_kv, D, D, 0.125f, old_scratch)"),
    ])


def kbench():
    return edit((S38 / "kbench.cpp").read_text(), [
        ("Alternates session 22's kernel and the current one", "Alternates oldk and newk (session 50)"),
        ('#include "kernels.h"', USING),
        ("    thread_local std::vector<float> S;", "    thread_local oldk::Scratch old_scratch;"),
        ("    S.resize(size_t(R) * n_kv);", "    old_scratch = {scratch.S, scratch.K, scratch.live};"),
        ("        const char* kb = reinterpret_cast",
         "        oldk::Row old_rows[6];\n"
         "        for (int t = 0; t < t1 - t0; ++t) old_rows[t] = {rows[t].q, rows[t].mask, rows[t].out};\n"
         "        const char* kb = reinterpret_cast"),
        ("attend_rows_old<RR>(rows, kb, nb, vb, nb, n_kv, kDim, kDim, 0.125f, S.data());     \\",
         "oldk::attend_rows<RR>(old_rows, kb, nb, vb, nb, n_kv, kDim, kDim, 0.125f, old_scratch); \\"),
        ("session 22 %.3f ms, now %.3f ms", "shipped %.3f ms, new %.3f ms"),
    ])


def main():
    old, new, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    body = "".join(f"namespace {ns} {{\n{added_code(Path(p).read_text())}\n}}  // namespace {ns}\n"
                   for ns, p in (("oldk", old), ("newk", new)))
    (out / "kernels.h").write_text(preamble() + body)
    (out / "kcheck.cpp").write_text(kcheck())
    (out / "kbench.cpp").write_text(kbench())


if __name__ == "__main__":
    main()
