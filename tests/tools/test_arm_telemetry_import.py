# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""tools/arm-telemetry-import's translation rules, on small made-up specifications.

Run by `make import-check` (and so by `make test`): python3 -m unittest discover tests/tools
"""

import copy
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_path = os.path.join(ROOT, "tools", "arm-telemetry-import")
_loader = importlib.machinery.SourceFileLoader("arm_telemetry_import", _path)
_spec = importlib.util.spec_from_loader("arm_telemetry_import", _loader)
ati = importlib.util.module_from_spec(_spec)
_loader.exec_module(ati)

CORE = {"id": "neoverse-x9", "file": "x9.json", "products": "Cloud 9", "also_parts": []}


def event(code):
    return {"code": code, "title": "t", "description": "d"}


def metric(formula, units, description="About it. More about it."):
    return {"title": "T", "formula": formula, "description": description, "units": units}


def step(name, group, *next_items):
    return {"name": name, "group": group, "next_items": list(next_items), "sample_events": []}


def spec():
    """Level 1 as Arm writes it for a 4-wide core, a level-2 pair, a stray share, a group."""
    slots = "percent of slots"
    cycles = "percent of cycles"
    return {
        "document": {"sha1": "6687b72762c41b45420d90c8a1e8f015c9f1ff7a"},
        "product_configuration": {"product_name": "Neoverse X9", "part_num": "0xd99",
                                  "major_revision": "0", "minor_revision": "1",
                                  "implementer": "0x41", "num_slots": 4},
        "events": {"CPU_CYCLES": event("0x0011"), "STALL_SLOT": event("0x003F"),
                   "STALL_SLOT_FRONTEND": event("0x003E"),
                   "STALL_SLOT_BACKEND": event("0x003D"), "OP_RETIRED": event("0x003A"),
                   "OP_SPEC": event("0x003B"), "STALL_FRONTEND_FLUSH": event("0x8162"),
                   "STALL_BACKEND": event("0x0024"), "STALL_BACKEND_MEMBOUND": event("0x8164"),
                   "STALL_BACKEND_CPUBOUND": event("0x816A"),
                   "STALL_BACKEND_BUSY": event("0x816B")},
        "metrics": {
            "frontend_bound": metric("(STALL_SLOT_FRONTEND / (4 * CPU_CYCLES) - "
                                     "STALL_FRONTEND_FLUSH / CPU_CYCLES) * 100", slots),
            "backend_bound": metric("STALL_SLOT_BACKEND / (4 * CPU_CYCLES) * 100", slots),
            "retiring": metric("(1 - STALL_SLOT / (CPU_CYCLES * 4)) * (OP_RETIRED / OP_SPEC) * "
                               "100", slots),
            "bad_speculation": metric("(1 - STALL_SLOT / (4 * CPU_CYCLES)) * (1 - OP_RETIRED / "
                                      "OP_SPEC) * 100 + STALL_FRONTEND_FLUSH / CPU_CYCLES * "
                                      "100", slots, "Slots that did not retire."),
            "backend_mem_bound": metric("STALL_BACKEND_MEMBOUND / STALL_BACKEND * 100", cycles),
            "backend_core_bound": metric("STALL_BACKEND_CPUBOUND / STALL_BACKEND * 100", cycles),
            "backend_busy_bound": metric("STALL_BACKEND_BUSY / STALL_BACKEND * 100", cycles),
        },
        "groups": {"metrics": {"Topdown_L1": {}, "Topdown_Backend": {}, "Operation_Mix": {}}},
        "methodologies": {"topdown_methodology": {
            "metric_grouping": {"stage_1": ["Topdown_L1", "Topdown_Backend"],
                                "stage_2": ["Operation_Mix"]},
            "decision_tree": {
                "root_nodes": ["frontend_bound", "backend_bound", "retiring",
                               "bad_speculation"],
                "metrics": [step("frontend_bound", "Topdown_L1"),
                            step("backend_bound", "Topdown_L1", "backend_core_bound",
                                 "backend_mem_bound"),
                            step("retiring", "Topdown_L1", "Operation_Mix"),
                            step("bad_speculation", "Topdown_L1"),
                            step("backend_core_bound", "Topdown_Backend"),
                            step("backend_mem_bound", "Topdown_Backend"),
                            step("backend_busy_bound", "Topdown_Backend")]}}},
    }


def model(doc=None):
    return ati.Model(CORE, doc or spec(), "x9.json")


def node_block(text, name):
    """The lines of node NAME in a model's text, from its `node` line to the next blank one."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("node ") and
                 l.split()[2] == name)
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


class Translation(unittest.TestCase):
    def test_percent_of_slots_becomes_a_fraction_of_slots(self):
        m = model()
        text = ati.write_model(m)
        self.assertIn("  formula stall_slot_frontend / SLOTS - stall_frontend_flush / cpu_cycles",
                      node_block(text, "Frontend_Bound"))
        # each term of a sum loses its "* 100"; Arm's parentheses, and its order, are kept
        self.assertIn("  formula (1 - stall_slot / SLOTS) * (1 - op_retired / op_spec) + "
                      "stall_frontend_flush / cpu_cycles", node_block(text, "Bad_Speculation"))
        self.assertIn("  formula (1 - stall_slot / SLOTS) * (op_retired / op_spec)",
                      node_block(text, "Retiring"))
        # the width: the PMU's own where it says, else Arm's num_slots
        self.assertIn("const Documented_Width = 4", text)
        self.assertIn("helper SLOTS = Width * cpu_cycles", text)
        self.assertIn("helper Width = pmu_slots if pmu_slots > 0 else Documented_Width", text)

    def test_level_1_under_tma_names_in_tmas_order_the_rest_under_arms(self):
        text = ati.write_model(model())
        numbered = [l.split()[1:] for l in text.splitlines() if l.startswith("node ")]
        self.assertEqual(numbered, [["1", "Frontend_Bound"], ["2", "Bad_Speculation"],
                                    ["3", "Backend_Bound"], ["3.1", "backend_core_bound"],
                                    ["3.2", "backend_mem_bound"],
                                    ["3.3", "backend_busy_bound"], ["4", "Retiring"]])
        self.assertIn("  domain Slots", node_block(text, "Backend_Bound"))
        self.assertIn("  domain Clocks", node_block(text, "backend_mem_bound"))
        self.assertIn("  threshold > 0.2", node_block(text, "Backend_Bound"))
        self.assertIn("  threshold " + ati.DEEPER_THRESHOLD, node_block(text, "backend_mem_bound"))
        self.assertIn("  groups Topdown_Backend", node_block(text, "backend_core_bound"))
        self.assertEqual(model().level_counts(), [4, 3])

    def test_a_share_no_node_leads_to_goes_under_its_denominators_parent(self):
        m = model()
        self.assertEqual(m.nodes["backend_busy_bound"].number, "3.3")
        self.assertIn("backend_busy_bound is in the tree's metrics", ati.write_model(m))
        doc = spec()
        doc["metrics"]["backend_busy_bound"]["formula"] = "STALL_BACKEND_BUSY / CPU_CYCLES * 100"
        with self.assertRaisesRegex(ati.ImportError_, "backend_busy_bound is in the decision "
                                                      "tree but no node leads to it"):
            model(doc)

    def test_stage_2_groups_are_named_not_nodes(self):
        text = ati.write_model(model())
        self.assertIn("Retiring to Operation_Mix", text)
        self.assertNotIn("Operation_Mix\n", "".join(l for l in text.splitlines()
                                                     if l.startswith("node")))

    def test_descriptions_travel_with_the_node(self):
        text = ati.write_model(model())
        self.assertIn("  desc About it.", node_block(text, "Frontend_Bound"))
        self.assertIn("  brief About it. More about it.", node_block(text, "Frontend_Bound"))
        # one sentence: desc alone (a node without brief reads desc)
        block = node_block(text, "Bad_Speculation")
        self.assertIn("  desc Slots that did not retire.", block)
        self.assertFalse(any(l.startswith("  brief") for l in block))
        doc = spec()
        doc["metrics"]["retiring"]["description"] = "The #slots that retired."
        self.assertIn("  desc The \\#slots that retired.",
                      node_block(ati.write_model(model(doc)), "Retiring"))

    def test_what_it_cannot_translate_stops_it(self):
        cases = [
            ("units", "percent of widgets", "unit 'percent of widgets'"),
            ("formula", "STALL_SLOT_BACKEND / (4 * CPU_CYCLES)", "not 'X \\* 100'"),
            ("formula", "STALL_SLOT_BACKEND / 4 * 100", "the slot width 4 outside"),
            ("formula", "STALL_SLOT_BACKEND / NO_SUCH_EVENT * 100", "NO_SUCH_EVENT is not an "
                                                                    "event"),
            ("formula", "STALL_SLOT_BACKEND % 2 * 100", "cannot read formula"),
            ("formula", "(STALL_SLOT_BACKEND * 100", "'\\)' missing"),
        ]
        for key, value, message in cases:
            doc = spec()
            doc["metrics"]["backend_bound"][key] = value
            with self.assertRaisesRegex(ati.ImportError_, "metric backend_bound: .*" + message):
                model(doc)
        doc = spec()
        doc["methodologies"]["topdown_methodology"]["decision_tree"]["root_nodes"].pop()
        with self.assertRaisesRegex(ati.ImportError_, "root_nodes"):
            model(doc)
        doc = spec()
        doc["methodologies"]["topdown_methodology"]["decision_tree"]["metrics"][0][
            "next_items"] = ["Nowhere"]
        with self.assertRaisesRegex(ati.ImportError_, "neither a metric nor a group"):
            model(doc)


class CpuDescription(unittest.TestCase):
    def test_keys_counters_and_event_numbers(self):
        core = copy.deepcopy(CORE)
        core["also_parts"] = [("D98", "its sibling")]
        text = ati.write_cpu(ati.Model(core, spec(), "x9.json"))
        lines = text.splitlines()
        self.assertIn("match ARM-41-D99", lines)
        self.assertIn("match ARM-41-D98", lines)
        self.assertIn("title Arm Neoverse X9 (Cloud 9)", lines)
        self.assertIn("tma_version ts-6687b72", lines)
        self.assertIn("gp_counters 6", lines)
        self.assertIn("fixed_counters 1", lines)
        self.assertIn("event CPU_CYCLES event=0x11 umask=0x00 counters=fixed:0", lines)
        # Arm's 16-bit numbers, as the raw config
        self.assertIn("event STALL_FRONTEND_FLUSH event=0x8162 umask=0x00 counters=0-5", lines)
        events = [l.split()[1] for l in lines if l.startswith("event ")]
        self.assertEqual(events, sorted(events))
        self.assertEqual(len(events), 11)  # every event the model reads, once

    def test_the_shipped_files_regenerate_from_arms(self):
        """What make import-check diffs, on the two shipped cores."""
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, _path, "--out", out], check=True)
            for core in ati.CORES:
                for ext in (".tma", ".cpu"):
                    with open(os.path.join(out, core["id"] + ext), encoding="utf-8") as f:
                        made = f.read()
                    with open(os.path.join(ROOT, "user", "model", "builtin", core["id"] + ext),
                              encoding="utf-8") as f:
                        self.assertEqual(made, f.read(), core["id"] + ext)


if __name__ == "__main__":
    unittest.main()
