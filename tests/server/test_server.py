#!/usr/bin/env python3
"""End-to-end tests of `reader serve` with real clients: curl and the `openai` package.

Starts the server on a free loopback port (the real SmolLM2 model) and checks: the
endpoints, streamed and whole answers, 16 concurrent clients whose greedy outputs equal
the same requests sent one at a time, predicted outputs, the OpenAI-style errors, the API
key, a full queue, a client leaving mid-stream, SIGTERM, and that a mixed load leaves no
KV cells or sequences behind.

    tests/server/test_server.py --reader build/bin/reader [--load N] [-k PATTERN]
"""
import argparse
import concurrent.futures as futures
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

ARGS = None


class ReaderServer:
    """A `reader serve` process on a free port; stopped with SIGTERM."""

    def __init__(self, *extra):
        self.port_file = tempfile.mktemp(prefix="reader-port-")
        self.log = tempfile.TemporaryFile()
        cmd = [ARGS.reader, "serve", "--port", "0", "--port-file", self.port_file, *extra]
        if ARGS.threads:
            cmd += ["--threads", str(ARGS.threads)]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=self.log)
        deadline = time.time() + 120
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("reader serve exited: " + self.output())
            if os.path.exists(self.port_file):
                with open(self.port_file) as f:
                    text = f.read().strip()
                if text:
                    self.port = int(text)
                    break
            time.sleep(0.1)
        else:
            raise RuntimeError("reader serve did not start: " + self.output())
        self.base = f"http://127.0.0.1:{self.port}"

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self, timeout=60):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
            if rc != 0:
                sys.stderr.write("reader serve exited with %d; its output:\n%s\n" % (rc, self.output()))
            return rc
        finally:
            if os.path.exists(self.port_file):
                os.remove(self.port_file)

    def request(self, method, path, body=None, headers=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def post(self, path, body, **kw):
        status, text = self.request("POST", path, body, **kw)
        # A whole answer may open with spaces: the server's heartbeat while it generates.
        return status, json.loads(text) if text.lstrip().startswith("{") else text

    def engine(self):
        return json.loads(self.request("GET", "/debug/engine")[1])

    def requests_with_status(self, status):
        """reader_requests_total{status=...} from /metrics (0 when absent)."""
        key = 'reader_requests_total{status="%d"} ' % status
        for line in self.request("GET", "/metrics")[1].splitlines():
            if line.startswith(key):
                return int(line[len(key):])
        return 0

    def wait_idle(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            e = self.engine()
            if e["running"] == 0 and e["waiting"] == 0 and e["in_flight"] == 0:
                return e
            time.sleep(0.1)
        raise AssertionError("engine not idle: %s" % self.engine())


PROMPTS = [
    "Write a Python function that returns the factorial of n.",
    "List three colours of the rainbow.",
    "What is the capital of France? Answer in one sentence.",
    "Explain recursion to a child in two sentences.",
    "Translate 'good morning' into Spanish.",
    "Write a haiku about winter.",
    "Give two tips for writing clean code.",
    "What is 12 plus 30?",
    "Name a famous physicist and one discovery.",
    "Write a SQL query that counts the rows of a table named users.",
    "Describe the smell of rain in one sentence.",
    "Repeat the word 'echo' five times.",
    "What does HTTP stand for?",
    "Suggest a name for a pet turtle.",
    "Write a limerick opening line about a cat.",
    "Why is the sky blue? One sentence.",
]


def chat(prompt, **kw):
    return {"messages": [{"role": "user", "content": prompt}], "temperature": 0,
            "max_tokens": 48, **kw}


def read_stream(server, body):
    """POSTs a streamed request with curl; returns (text, finish_reason, usage, saw_done)."""
    out = subprocess.run(["curl", "-sN", "-H", "Content-Type: application/json", "-d",
                          json.dumps(body), server.base + "/v1/chat/completions"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    text, reason, usage, done = "", None, None, False
    for line in out.splitlines():
        if not line.startswith("data: "):
            continue
        payload = line[6:]
        if payload == "[DONE]":
            done = True
            continue
        ev = json.loads(payload)
        if ev.get("usage"):
            usage = ev["usage"]
        for ch in ev["choices"]:
            text += ch["delta"].get("content") or ""
            reason = ch["finish_reason"] or reason
    return text, reason, usage, done


class ServerTest(unittest.TestCase):
    server = None

    @classmethod
    def setUpClass(cls):
        cls.server = ReaderServer("--parallel", "8", "--ctx", "1024")

    @classmethod
    def tearDownClass(cls):
        rc = cls.server.stop()
        assert rc == 0, "reader serve exited with %s: %s" % (rc, cls.server.output())

    def test_health_and_models(self):
        self.assertEqual(self.server.request("GET", "/health")[0], 200)
        status, body = self.server.request("GET", "/v1/models")
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body)["data"][0]["object"], "model")
        status, body = self.server.request("GET", "/metrics")
        self.assertEqual(status, 200)
        self.assertIn("reader_generated_tokens_total", body)
        self.assertIn("reader_kv_cells_used", body)
        for name in ("reader_busy_seconds_total", "reader_decode_seconds_total",
                     "reader_draft_seconds_total", "reader_cached_sequences"):
            self.assertIn(name, body)

    def test_chat_and_completion_shapes(self):
        status, r = self.server.post("/v1/chat/completions", chat(PROMPTS[2]))
        self.assertEqual(status, 200, r)
        self.assertEqual(r["object"], "chat.completion")
        self.assertTrue(r["choices"][0]["message"]["content"])
        self.assertIn(r["choices"][0]["finish_reason"], ("stop", "length"))
        u = r["usage"]
        self.assertEqual(u["total_tokens"], u["prompt_tokens"] + u["completion_tokens"])
        status, r = self.server.post("/v1/completions",
                                     {"prompt": "The capital of France is", "max_tokens": 8,
                                      "temperature": 0})
        self.assertEqual(status, 200, r)
        self.assertEqual(r["object"], "text_completion")
        self.assertEqual(r["usage"]["completion_tokens"], 8)
        self.assertEqual(r["choices"][0]["finish_reason"], "length")

    def test_stream_equals_whole(self):
        status, whole = self.server.post("/v1/chat/completions", chat(PROMPTS[0]))
        self.assertEqual(status, 200)
        text, reason, usage, done = read_stream(
            self.server, chat(PROMPTS[0], stream=True, stream_options={"include_usage": True}))
        self.assertTrue(done)
        self.assertEqual(text, whole["choices"][0]["message"]["content"])
        self.assertEqual(reason, whole["choices"][0]["finish_reason"])
        self.assertEqual(usage["completion_tokens"], whole["usage"]["completion_tokens"])

    def test_concurrent_clients_equal_alone(self):
        alone = []
        for p in PROMPTS:
            status, r = self.server.post("/v1/chat/completions", chat(p))
            self.assertEqual(status, 200, r)
            alone.append(r["choices"][0]["message"]["content"])

        def one(i):
            if i % 2:
                return read_stream(self.server, chat(PROMPTS[i], stream=True))[0]
            return self.server.post("/v1/chat/completions", chat(PROMPTS[i]))[1][
                "choices"][0]["message"]["content"]

        with futures.ThreadPoolExecutor(16) as pool:
            together = list(pool.map(one, range(len(PROMPTS))))
        for i, (a, b) in enumerate(zip(alone, together)):
            self.assertEqual(a, b, "prompt %d differs when sent with 15 others" % i)
        self.server.wait_idle()

    def test_openai_client(self):
        try:
            import openai
        except ImportError:
            self.skipTest("the openai package is not installed (scripts/setup.sh installs it)")
        client = openai.OpenAI(base_url=self.server.base + "/v1", api_key="unused")
        r = client.chat.completions.create(model=client.models.list().data[0].id,
                                           messages=[{"role": "user", "content": PROMPTS[5]}],
                                           temperature=0, max_tokens=32)
        whole = r.choices[0].message.content
        self.assertTrue(whole)
        stream = client.chat.completions.create(
            messages=[{"role": "user", "content": PROMPTS[5]}], model="", temperature=0,
            max_tokens=32, stream=True)
        self.assertEqual("".join(c.choices[0].delta.content or "" for c in stream if c.choices),
                         whole)
        c = client.completions.create(model="", prompt="Once upon a time", max_tokens=8,
                                      temperature=0)
        self.assertEqual(c.usage.completion_tokens, 8)
        with self.assertRaises(openai.BadRequestError):
            client.chat.completions.create(model="", messages=[], max_tokens=4)

    def test_prediction(self):
        code = "def add(a, b):\n    return a + b\n"
        body = chat("Rename the function below to plus. Reply with the code only.\n\n" + code,
                    prediction={"type": "content", "content": code.replace("add", "plus")},
                    max_tokens=40)
        status, r = self.server.post("/v1/chat/completions", body)
        self.assertEqual(status, 200, r)
        d = r["usage"]["completion_tokens_details"]
        self.assertGreater(d["accepted_prediction_tokens"], 0)
        # The prediction changes speed, never the text.
        del body["prediction"]
        self.assertEqual(self.server.post("/v1/chat/completions", body)[1]["choices"][0],
                         r["choices"][0])

    def test_sampling_is_reproducible(self):
        body = chat(PROMPTS[6], temperature=0.9, seed=123, max_tokens=32)
        a = self.server.post("/v1/chat/completions", body)[1]["choices"][0]["message"]["content"]
        b = self.server.post("/v1/chat/completions", body)[1]["choices"][0]["message"]["content"]
        self.assertEqual(a, b)

    def test_errors(self):
        s = self.server
        cases = [
            (b"{not json", 400),
            (json.dumps({"messages": "hi"}).encode(), 400),
            (json.dumps({"messages": []}).encode(), 400),
            (json.dumps(chat("x", max_tokens=-1)).encode(), 400),
            (json.dumps(chat("x", max_tokens=10 ** 6)).encode(), 400),
            (json.dumps(chat("x", model="no-such-model")).encode(), 404),
            (json.dumps({"messages": [{"role": "user", "content": "word " * 3000}]}).encode(), 400),
        ]
        for raw, want in cases:
            status, text = s.request("POST", "/v1/chat/completions", raw=raw)
            self.assertEqual(status, want, raw[:80])
            err = json.loads(text)["error"]
            self.assertTrue(err["message"])
            self.assertNotIn("\n", err["message"])
        # cpp-httplib caps form-encoded bodies (curl -d's default type) at 8 KiB: say so.
        body = json.dumps(chat("word " * 2000)).encode()
        status, text = s.request("POST", "/v1/chat/completions", raw=body,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 413)
        self.assertIn("application/json", json.loads(text)["error"]["message"])
        # Unknown fields are ignored.
        status, _ = s.post("/v1/chat/completions", chat("Hi", some_future_field={"a": 1},
                                                         max_tokens=2))
        self.assertEqual(status, 200)
        self.assertEqual(s.request("GET", "/v1/nothing")[0], 404)

    def test_client_leaving_mid_stream_frees_its_sequence(self):
        body = json.dumps(chat(PROMPTS[3], stream=True, max_tokens=400)).encode()
        sock = socket.create_connection(("127.0.0.1", self.server.port))
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
                     + body)
        sock.recv(256)  # the headers and the first event: it is running
        sock.close()
        e = self.server.wait_idle()
        self.assertEqual(e["running"], 0)

    def test_client_leaving_before_a_whole_answer_frees_its_sequence(self):
        left = self.server.requests_with_status(499)
        # Counting goes on for all of max_tokens.
        body = json.dumps({"prompt": "1, 2, 3, 4, 5, 6, 7, 8,", "max_tokens": 900,
                           "temperature": 0}).encode()
        sock = socket.create_connection(("127.0.0.1", self.server.port))
        sock.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
                     + body)
        sock.recv(256)  # the headers: it is running
        sock.close()
        e = self.server.wait_idle()
        self.assertEqual(e["running"], 0)
        # Cancelled (499), not run to its end: 900 tokens take several seconds here, the heartbeat
        # notices the closed socket within about 1.5 s.
        self.assertEqual(self.server.requests_with_status(499), left + 1)


class ServerLimitsTest(unittest.TestCase):
    def test_api_key(self):
        s = ReaderServer("--api-key", "sekret", "--parallel", "1")
        try:
            self.assertEqual(s.post("/v1/chat/completions", chat("Hi", max_tokens=2))[0], 401)
            self.assertEqual(s.request("GET", "/v1/models")[0], 401)
            self.assertEqual(s.request("GET", "/health")[0], 200)
            status, _ = s.post("/v1/chat/completions", chat("Hi", max_tokens=2),
                               headers={"Authorization": "Bearer sekret"})
            self.assertEqual(status, 200)
        finally:
            self.assertEqual(s.stop(), 0)

    def test_nonsense_settings_are_refused_at_startup(self):
        for extra in (["--api-key", ""], ["--max-tokens-limit", "0"],
                      ["--default-max-tokens", "5000"], ["--memory-tokens", "-1"],
                      ["--queue", "100000"]):
            r = subprocess.run([ARGS.reader, "serve", "--port", "0", *extra], capture_output=True,
                               text=True, timeout=120)
            self.assertNotEqual(r.returncode, 0, extra)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_queue_zero_admits_into_free_sequences(self):
        # --queue 0: nothing waits, but a burst no larger than the free sequences runs.
        s = ReaderServer("--parallel", "2", "--queue", "0", "--no-prompt-cache", "--ctx", "512")
        try:
            with futures.ThreadPoolExecutor(2) as pool:
                results = list(pool.map(
                    lambda i: s.post("/v1/chat/completions", chat(PROMPTS[i], max_tokens=8))[0],
                    range(2)))
            self.assertEqual(results, [200, 200])
            # More messages than the context has tokens: refused before rendering.
            many = {"messages": [{"role": "user", "content": "hi"}] * 600, "max_tokens": 2}
            status, r = s.post("/v1/chat/completions", many)
            self.assertEqual(status, 400, r)
            self.assertIn("messages cannot fit", r["error"]["message"])
            # A client leaving frees its cells even when nothing else comes (no prompt cache).
            body = json.dumps(chat(PROMPTS[3], stream=True, max_tokens=400)).encode()
            sock = socket.create_connection(("127.0.0.1", s.port))
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                         % len(body) + body)
            sock.recv(256)
            sock.close()
            deadline = time.time() + 30
            while time.time() < deadline and s.engine()["kv_cells"] != 0:
                time.sleep(0.2)
            self.assertEqual(s.engine()["kv_cells"], 0)
        finally:
            self.assertEqual(s.stop(), 0)

    def test_port_in_use_is_an_error(self):
        s = ReaderServer("--parallel", "1")
        try:
            r = subprocess.run([ARGS.reader, "serve", "--port", str(s.port)], capture_output=True,
                               text=True, timeout=120)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("cannot listen", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        finally:
            self.assertEqual(s.stop(), 0)

    def test_full_queue_and_sigterm(self):
        s = ReaderServer("--parallel", "1", "--queue", "1")
        try:
            with futures.ThreadPoolExecutor(6) as pool:
                results = list(pool.map(
                    lambda i: s.post("/v1/chat/completions", chat(PROMPTS[i], max_tokens=64))[0],
                    range(6)))
            self.assertIn(429, results)
            self.assertIn(200, results)
            # SIGTERM with a request in flight: it finishes, then the server exits 0.
            with futures.ThreadPoolExecutor(1) as pool:
                pending = pool.submit(read_stream, s, chat(PROMPTS[1], stream=True, max_tokens=64))
                time.sleep(1.0)
                s.proc.send_signal(signal.SIGTERM)
                text, reason, _, done = pending.result()
                self.assertTrue(done)
            self.assertEqual(s.proc.wait(60), 0)
        finally:
            s.stop()

    def test_mixed_load_leaks_nothing(self):
        s = ReaderServer("--parallel", "8", "--no-prompt-cache", "--ctx", "512")
        rng = random.Random(7)
        try:
            def one(i):
                kind = rng.choice(["whole", "stream", "leave", "bad", "predict"])
                p = PROMPTS[i % len(PROMPTS)]
                if kind == "whole":
                    return s.post("/v1/chat/completions", chat(p, max_tokens=rng.randint(1, 12)))[0]
                if kind == "stream":
                    return 200 if read_stream(s, chat(p, stream=True, max_tokens=8))[3] else 0
                if kind == "predict":
                    return s.post("/v1/chat/completions",
                                  chat(p, max_tokens=8, prediction={"type": "content",
                                                                    "content": p}))[0]
                if kind == "bad":
                    return s.request("POST", "/v1/chat/completions", raw=b'{"messages": 3}')[0]
                body = json.dumps(chat(p, stream=True, max_tokens=64)).encode()
                with socket.create_connection(("127.0.0.1", s.port)) as sock:
                    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                                 b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
                    sock.recv(64)
                return 200
            with futures.ThreadPoolExecutor(16) as pool:
                statuses = list(pool.map(one, range(ARGS.load)))
            self.assertTrue(all(st in (200, 400) for st in statuses), statuses)
            e = s.wait_idle()
            self.assertEqual(e["kv_cells"], 0, e)
            self.assertEqual(s.post("/v1/chat/completions", chat("Hi", max_tokens=2))[0], 200)
            e = s.wait_idle()
            self.assertEqual(e["kv_cells"], 0, e)
        finally:
            self.assertEqual(s.stop(), 0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--reader", required=True, help="path of the reader binary")
    parser.add_argument("--load", type=int, default=120, help="requests in the mixed load test")
    parser.add_argument("--threads", type=int, default=0, help="llama.cpp threads (0: all cores)")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], "-v", *rest])
