"""An OpenEnv client in the Python standard library, written against the documented contract only (no project code):
HTTP with urllib (POST /reset, POST /step with episode_id, GET /state) and the WebSocket session (GET /ws) with a
minimal RFC 6455 client over `socket`. One scripted policy (the hyperkalemia task: read the potassium and the ACE
inhibitor order, stop the order, order a repeat BMP, answer) drives a whole episode over either transport, and the
same policy is run through the gym API's tool route and graded there, so the test can compare the two grades.
  python3 openenv_client.py http SERVER_URL TASK VARIANT [final|shaped]
  python3 openenv_client.py ws SERVER_URL TASK SEED
  python3 openenv_client.py ws-errors SERVER_URL TASK VARIANT
Each prints one JSON object with what it saw."""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import urllib.error
import urllib.parse
import urllib.request


def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, (json.loads(text) if text else None)


# --- A minimal RFC 6455 client: handshake, masked text frames out, frames in (fragments, ping, close). ---

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocket:
    def __init__(self, url):
        parsed = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {parsed.path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        lines = head.decode().split("\r\n")
        assert lines[0].split(" ")[1] == "101", lines[0]
        headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
        expected = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        assert headers.get("sec-websocket-accept") == expected, headers

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_text(self, text):
        self._send_frame(0x1, text.encode())

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("connection closed")
            data += chunk
        return data

    def _frame(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._read(8))[0]
        mask = self._read(4) if b1 & 0x80 else None
        payload = self._read(n)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def recv(self):
        """The next message's text, or None when the server closed."""
        parts = []
        while True:
            fin, opcode, payload = self._frame()
            if opcode == 0x8:
                return None
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode()

    def request(self, message):
        self.send_text(json.dumps(message))
        return json.loads(self.recv())

    def close(self):
        self._send_frame(0x8, struct.pack(">H", 1000))
        try:
            while self.recv() is not None:
                pass
        except (ConnectionError, OSError):
            pass
        self.sock.close()


# --- The policy: actions from observations, the same whichever transport carries them. ---

def policy(variant):
    """A generator: yields actions, receives each action's result text."""
    seen = yield {"type": "call_tool", "tool_name": "no_such_tool", "arguments": {}}
    result = yield {"type": "call_tool", "tool_name": "fhir_search", "arguments": {
        "resourceType": "Observation", "params": {"patient": variant, "code": "http://loinc.org|2823-3", "_sort": "-date"}}}
    k = json.loads(result)["resources"][0]["valueQuantity"]["value"]
    result = yield {"type": "call_tool", "tool_name": "fhir_search", "arguments": {
        "resourceType": "MedicationRequest", "params": {"patient": variant, "status": "active"}}}
    orders = [r for r in json.loads(result)["resources"]
              if "lisinopril" in json.dumps(r.get("medicationCodeableConcept", {})).lower()]
    for order in orders:
        read = yield {"type": "call_tool", "tool_name": "fhir_read", "arguments": {"resourceType": "MedicationRequest", "id": order["id"]}}
        order = json.loads(read)
        order["status"] = "stopped"
        order["statusReason"] = {"coding": [{"system": "http://snomed.info/sct", "code": "14140009", "display": "Hyperkalemia"}],
                                 "text": f"Hyperkalemia (K {k} mmol/L)"}
        yield {"type": "call_tool", "tool_name": "fhir_update", "arguments": {"resourceType": "MedicationRequest", "id": order["id"], "resource": order}}
    yield {"type": "call_tool", "tool_name": "fhir_create", "arguments": {"resourceType": "ServiceRequest", "resource": {
        "resourceType": "ServiceRequest", "status": "active", "intent": "order", "priority": "urgent",
        "category": [{"coding": [{"system": "http://snomed.info/sct", "code": "108252007", "display": "Laboratory procedure"}]}],
        "code": {"coding": [{"system": "http://loinc.org", "code": "51990-0", "display": "Basic metabolic panel - Blood"}]},
        "subject": {"reference": f"Patient/{variant}"},
        "reasonCode": [{"text": f"Hyperkalemia, K {k} mmol/L; lisinopril stopped"}]}}}
    yield {"type": "final_answer", "answer": f"Latest K {k} mmol/L; lisinopril stopped, repeat BMP ordered."}


def run_policy(variant, act):
    """Drives the policy with `act(action) -> (result_text, done, answer)`; the answers in order."""
    answers = []
    agent = policy(variant)
    action = next(agent)
    while True:
        text, done, answer = act(action)
        answers.append(answer)
        if done:
            return answers
        try:
            action = agent.send(text)
        except StopIteration:
            return answers


def gym_run(server, task, variant):
    """The same policy through the gym API: a session, POST /gym/sessions/{id}/tools/{name}, then the grade."""
    status, session = call("POST", f"{server}/gym/sessions", {"task": task, "variant": variant})
    assert status == 201, (status, session)

    def act(action):
        name, args = ("finish", {"answer": action["answer"]}) if action["type"] == "final_answer" else (action["tool_name"], action["arguments"])
        status, result = call("POST", f"{server}/gym/sessions/{session['id']}/tools/{name}", args)
        assert status == 200, (status, result)
        return result["text"], bool(result.get("finished")), {"is_error": result["isError"]}

    results = run_policy(variant, act)
    status, grade = call("POST", f"{server}/gym/sessions/{session['id']}/grade")
    assert status == 200, (status, grade)
    return {"results": results, "grade": grade}


def http_episode(server, task, variant, mode):
    env = f"{server}/openenv"
    status, reset = call("POST", f"{env}/reset", {"task": task, "variant": variant, "seed": 7, "reward_mode": mode})
    assert status == 200, (status, reset)
    episode = reset["observation"]["episode_id"]
    steps = []
    states = []

    def act(action):
        status, state = call("GET", f"{env}/state?" + urllib.parse.urlencode({"episode_id": episode}))
        states.append(state)
        status, answer = call("POST", f"{env}/step", {"action": action, "episode_id": episode, "request_id": f"r{len(steps)}"})
        assert status == 200, (status, answer)
        steps.append(answer)
        return answer["observation"]["result"], answer["done"], answer

    run_policy(reset["observation"]["variant"], act)
    status, final_state = call("GET", f"{env}/state?" + urllib.parse.urlencode({"episode_id": episode}))
    # The episode is over: one more step is refused.
    after_status, after = call("POST", f"{env}/step", {"action": {"type": "final_answer", "answer": "again"}, "episode_id": episode})
    # The episode's own session, graded through the gym API.
    status, own_grade = call("POST", f"{server}/gym/sessions/{final_state['session_id']}/grade")
    return {
        "reset": reset, "steps": steps, "states_before_steps": states, "final_state": final_state,
        "step_after_done": {"status": after_status, "body": after}, "own_session_grade": own_grade,
        "gym": gym_run(server, task, reset["observation"]["variant"]),
    }


def ws_episode(server, task, seed):
    ws = WebSocket(server.replace("http://", "ws://") + "/openenv/ws")
    reset = ws.request({"type": "reset", "data": {"task": task, "seed": seed}})
    assert reset["type"] == "observation", reset
    tools = ws.request({"type": "mcp", "data": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}})
    steps = []
    states = []

    def act(action):
        states.append(ws.request({"type": "state"}))
        answer = ws.request({"type": "step", "data": action})
        assert answer["type"] == "observation", answer
        steps.append(answer["data"])
        return answer["data"]["observation"]["result"], answer["data"]["done"], answer["data"]

    variant = reset["data"]["observation"]["variant"]
    run_policy(variant, act)
    final_state = ws.request({"type": "state"})
    status, own_grade = call("POST", f"{server}/gym/sessions/{final_state['data']['session_id']}/grade")
    ws.send_text(json.dumps({"type": "close"}))
    closed = ws.recv()
    ws.sock.close()
    # The close ended the episode and its session.
    status_after_close, session_after_close = call("GET", f"{server}/gym/sessions/{final_state['data']['session_id']}")
    return {
        "reset": reset, "tools": tools, "steps": steps, "states_before_steps": states, "final_state": final_state,
        "own_session_grade": own_grade, "closed": closed, "session_after_close": status_after_close,
        "gym": gym_run(server, task, variant),
    }


def ws_errors(server, task, variant):
    ws = WebSocket(server.replace("http://", "ws://") + "/openenv/ws")
    seen = {}
    ws.send_text("{not json")
    seen["invalid_json"] = json.loads(ws.recv())
    seen["unknown_type"] = ws.request({"type": "dance", "data": {}})
    seen["step_before_reset"] = ws.request({"type": "step", "data": {"tool_name": "fhir_read", "arguments": {}}})
    seen["bad_action"] = ws.request({"type": "step", "data": {"type": "final_answer"}})
    seen["bad_reset"] = ws.request({"type": "reset", "data": {"seed": -1}})
    seen["extra_field"] = ws.request({"type": "state", "colour": "blue"})
    seen["state_without_episode"] = ws.request({"type": "state"})
    ws.close()

    # An episode id chosen by the client and reused by an HTTP reset: the WebSocket's episode is replaced, its steps
    # are refused, and its closing leaves the new episode alone.
    ws = WebSocket(server.replace("http://", "ws://") + "/openenv/ws")
    ws.request({"type": "reset", "data": {"task": task, "variant": variant, "episode_id": "shared-episode"}})
    status, _ = call("POST", f"{server}/openenv/reset", {"task": task, "variant": variant, "episode_id": "shared-episode"})
    seen["step_after_takeover"] = ws.request({"type": "step", "data": {"tool_name": "fhir_read", "arguments": {"resourceType": "Patient", "id": variant}}})
    ws.close()
    status, state = call("GET", f"{server}/openenv/state?episode_id=shared-episode")
    seen["http_episode_after_ws_close"] = {"status": status, "step_count": state.get("step_count")}
    return seen


if __name__ == "__main__":
    what, server = sys.argv[1], sys.argv[2].rstrip("/")
    if what == "http":
        out = http_episode(server, sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else "final")
    elif what == "ws":
        out = ws_episode(server, sys.argv[3], int(sys.argv[4]))
    else:
        out = ws_errors(server, sys.argv[3], sys.argv[4])
    print(json.dumps(out))
