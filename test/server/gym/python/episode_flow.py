"""A whole gym episode over plain HTTP, as a Python agent harness would drive it (stdlib only, no project code):
catalogue -> session -> FHIR calls -> submit -> grade. Run by test/server/gym/grading.test.ts against a listening
server in two steps, so the test can grade the session the runner's way in between:
  python3 episode_flow.py act SERVER_URL TASK_ID     catalogue, session, FHIR calls, submit
  python3 episode_flow.py grade SERVER_URL SESSION   grade (twice), then a write and a second submit (both refused)
Each prints one JSON object with what it saw."""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request


def call(method, url, body=None, content_type="application/json"):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, (json.loads(text) if text else None)


def act(server, task_id):
    seen = {}

    # 1. The catalogue: find the task, its checkpoints and its variants on this server.
    status, catalogue = call("GET", f"{server}/gym/tasks?specialty={task_id.split('/')[0]}")
    assert status == 200, (status, catalogue)
    seen["catalogue"] = [t["id"] for t in catalogue["tasks"]]
    status, card = call("GET", f"{server}/gym/tasks/{task_id}")
    assert status == 200, (status, card)
    seen["card"] = card
    variant = card["variants"][-1]

    # An unknown variant is refused, naming the valid ones.
    status, refused = call("POST", f"{server}/gym/sessions", {"task": task_id, "variant": "nope-123"})
    seen["unknown_variant"] = {"status": status, "outcome": refused}

    # 2. A session of that variant: the instruction and the FHIR base to act on.
    status, session = call("POST", f"{server}/gym/sessions", {"task": task_id, "variant": variant})
    assert status == 201, (status, session)
    seen["session"] = {"id": session["id"], "variant": variant, "instruction": session["instruction"]}
    fhir = session["fhirBaseUrl"]

    # 3. Act through FHIR: read the potassium and the lisinopril order, stop the order, order a repeat BMP.
    query = urllib.parse.urlencode({"patient": variant, "code": "http://loinc.org|2823-3", "_sort": "-date"})
    status, potassium = call("GET", f"{fhir}/Observation?{query}")
    assert status == 200, (status, potassium)
    latest = potassium["entry"][0]["resource"]
    k = latest["valueQuantity"]["value"]
    status, orders = call("GET", f"{fhir}/MedicationRequest?" + urllib.parse.urlencode({"patient": variant, "status": "active"}))
    assert status == 200, (status, orders)
    lisinopril = [e["resource"] for e in orders.get("entry", [])
                  if "lisinopril" in json.dumps(e["resource"].get("medicationCodeableConcept", {})).lower()]
    for order in lisinopril:
        status, _ = call("GET", f"{fhir}/MedicationRequest/{order['id']}")
        order["status"] = "stopped"
        order["statusReason"] = {"coding": [{"system": "http://snomed.info/sct", "code": "14140009", "display": "Hyperkalemia"}],
                                 "text": f"Hyperkalemia (K {k} mmol/L)"}
        status, stopped = call("PUT", f"{fhir}/MedicationRequest/{order['id']}", order, "application/fhir+json")
        assert status == 200, (status, stopped)
    lab = {
        "resourceType": "ServiceRequest", "status": "active", "intent": "order", "priority": "urgent",
        "category": [{"coding": [{"system": "http://snomed.info/sct", "code": "108252007", "display": "Laboratory procedure"}]}],
        "code": {"coding": [{"system": "http://loinc.org", "code": "51990-0", "display": "Basic metabolic panel - Blood"}]},
        "subject": {"reference": f"Patient/{variant}"}, "authoredOn": session["now"],
        "reasonCode": [{"text": f"Hyperkalemia, K {k} mmol/L; lisinopril stopped"}],
    }
    status, created = call("POST", f"{fhir}/ServiceRequest", lab, "application/fhir+json")
    assert status == 201, (status, created)

    # 4. Submit: the answer ends the episode.
    status, submitted = call("POST", f"{server}/gym/sessions/{session['id']}/submit", {"answer": f"Latest K {k} mmol/L; lisinopril stopped, repeat BMP ordered."})
    assert status == 200, (status, submitted)
    seen["fhirBaseUrl"] = fhir
    return seen


def grade(server, session_id):
    seen = {}
    # 5. The grade, twice: the same verdicts.
    status, graded = call("POST", f"{server}/gym/sessions/{session_id}/grade")
    assert status == 200, (status, graded)
    seen["grade"] = graded
    status, seen["grade_again"] = call("POST", f"{server}/gym/sessions/{session_id}/grade")

    # The episode is over: a write to its FHIR base and a second submit are refused.
    status, info = call("GET", f"{server}/gym/sessions/{session_id}")
    basic = {"resourceType": "Basic", "code": {"text": "after the end"}}
    status, late = call("POST", f"{info['fhirBaseUrl']}/Basic", basic, "application/fhir+json")
    seen["write_after_submit"] = {"status": status, "outcome": late}
    status, again = call("POST", f"{server}/gym/sessions/{session_id}/submit", {"answer": "changed my mind"})
    seen["second_submit"] = {"status": status, "outcome": again}
    return seen


if __name__ == "__main__":
    step, server, what = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
    print(json.dumps(act(server, what) if step == "act" else grade(server, what)))
