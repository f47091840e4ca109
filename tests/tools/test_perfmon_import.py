# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
"""tools/perfmon-import's translation rules, on small made-up metrics files.

Run by `make import-check` (and so by `make test`): python3 -m unittest discover tests/tools
"""

import importlib.machinery
import importlib.util
import os
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_loader = importlib.machinery.SourceFileLoader("perfmon_import",
                                               os.path.join(ROOT, "tools", "perfmon-import"))
_spec = importlib.util.spec_from_loader("perfmon_import", _loader)
pi = importlib.util.module_from_spec(_spec)
_loader.exec_module(pi)


def ev(name, code="0x3c", umask="0x00", counter="0,1,2,3", **kw):
    e = {"EventName": name, "EventCode": code, "UMask": umask, "Counter": counter,
         "CounterMask": "0", "EdgeDetect": "0", "Invert": "0", "MSRIndex": "0", "MSRValue": "0"}
    e.update(kw)
    return e


CORE = {"Header": {"Version": "1"}, "Events": [
    ev("CPU_CLK_UNHALTED.THREAD", code="0x00", umask="0x02", counter="Fixed counter 1"),
    ev("CPU_CLK_UNHALTED.THREAD_ANY", code="0x00", umask="0x02", counter="Fixed counter 1",
       AnyThread="1"),
    ev("IDQ_UOPS_NOT_DELIVERED.CORE", code="0x9C", umask="0x01", CounterHTOff="0,1,2,3,4,5,6,7"),
    ev("UOPS_RETIRED.RETIRE_SLOTS", code="0xC2", umask="0x02"),
    ev("MEM_LOAD_RETIRED.L2_HIT", code="0xD1", umask="0x02"),
    ev("TOPDOWN.SLOTS", code="0x00", umask="0x04", counter="Fixed counter 3"),
    ev("TOPDOWN.SLOTS_P", code="0xa4", umask="0x01"),
    ev("OCR.DEMAND_RFO.L3_MISS", code="0xB7, 0xBB", umask="0x01", MSRIndex="0x1a6,0x1a7",
       MSRValue="0x3F3FC00002"),
]}


def metric(name, base, events, level=1, parent=None, legacy=None, threshold="", **kw):
    m = {"MetricName": name, "LegacyName": legacy or "metric_TMA_%s(%%)" % name,
         "Level": level, "Category": "TMA", "BaseFormula": base,
         "Events": [{"Name": e, "Alias": "x"} for e in events],
         "Threshold": {"BaseFormula": threshold}, "BriefDescription": "About %s. More." % name,
         "CountDomain": "Slots", "MetricGroup": "A;B"}
    if parent:
        m["ParentCategory"] = parent
    m.update(kw)
    return m


def info(name, base, events):
    return metric(name, base, events, legacy="metric_TMA_" + name)


def model(metrics, mid="tst", version=None):
    version = version or mid.partition("@")[2] or "9.9"
    doc = {"Header": {"TmaVersion": version, "Version": "1", "DatePublished": "today"},
           "Metrics": metrics}
    m = pi.Model(mid, "Test CPU", doc, CORE, "t_metrics.json", "t_core.json")
    m.core_doc = CORE
    return m


SLOTS = info("Info_Thread_SLOTS", "4 * tma_info_core_core_clks", ["CPU_CLK_UNHALTED.THREAD"])
CORE_CLKS = info("Info_Core_CORE_CLKS",
                 "( cpu_clk_unhalted.thread_any / 2 ) if smt_on else cpu_clk_unhalted.thread",
                 ["CPU_CLK_UNHALTED.THREAD_ANY", "CPU_CLK_UNHALTED.THREAD"])
FE = metric("Frontend_Bound", " idq_uops_not_delivered.core / tma_info_thread_slots",
            ["IDQ_UOPS_NOT_DELIVERED.CORE"],
            threshold="metric_TMA_Frontend_Bound(%) > 15")


class Formulas(unittest.TestCase):
    def test_info_metrics_become_helpers_and_smt_on_is_smt_enabled(self):
        m = model([FE, SLOTS, CORE_CLKS])
        self.assertEqual(pi.render(m.formula(FE)), "IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS")
        self.assertEqual(m.helpers["SLOTS"][0], "4 * CORE_CLKS")
        self.assertEqual(m.helpers["CORE_CLKS"][0],
                         "(CPU_CLK_UNHALTED.THREAD_ANY / 2) if smt_enabled else "
                         "CPU_CLK_UNHALTED.THREAD")

    def test_perf_metrics_read_as_fraction_of_slots(self):
        slots = info("Info_Thread_SLOTS", "topdown.slots:perf_metrics",
                     ["TOPDOWN.SLOTS:perf_metrics"])
        be = metric("Backend_Bound", "perf_metrics.backend_bound / ( perf_metrics.retiring )",
                    ["PERF_METRICS.BACKEND_BOUND", "PERF_METRICS.RETIRING"])
        m = model([be, slots], mid="gnr@5.1")     # checked against pmu-tools' reference
        self.assertEqual(pi.render(m.formula(be)), "(PERF_METRICS.BACKEND_BOUND / SLOTS) / "
                         "((PERF_METRICS.RETIRING / SLOTS))")
        self.assertEqual(m.helpers["SLOTS"][0], "TOPDOWN.SLOTS")

    def test_perf_metrics_read_as_intel_writes_them_at_tma52(self):
        be = metric("Backend_Bound", "perf_metrics.backend_bound / ( perf_metrics.retiring )",
                    ["PERF_METRICS.BACKEND_BOUND", "PERF_METRICS.RETIRING"])
        m = model([be])
        self.assertEqual(pi.render(m.formula(be)),
                         "PERF_METRICS.BACKEND_BOUND / (PERF_METRICS.RETIRING)")

    def test_typo_is_repaired_only_while_intel_has_it(self):
        n = metric("Info_X", "cpu_clk_unhalted.thread  _x", ["CPU_CLK_UNHALTED.THREAD"])
        pi.TYPOS[("tst", "Info_X")] = ("thread  _x", "thread")
        try:
            m = model([n])
            self.assertEqual(pi.render(m.formula(n)), "CPU_CLK_UNHALTED.THREAD")
            self.assertIn("Info_X", m.notes[0][1])      # the model's header says so
            n["BaseFormula"] = "cpu_clk_unhalted.thread"
            with self.assertRaisesRegex(pi.ImportError_, "no longer in Intel's BaseFormula"):
                model([n]).formula(n)
        finally:
            del pi.TYPOS[("tst", "Info_X")]

    def test_version_file_must_match_the_files_version(self):
        with self.assertRaisesRegex(pi.ImportError_, "is TMA 9.9"):
            model([FE], mid="tst@5.1", version="9.9")

    def test_descriptions_travel_with_the_node(self):
        n = metric("Frontend_Bound", "idq_uops_not_delivered.core",
                   ["IDQ_UOPS_NOT_DELIVERED.CORE"],
                   BriefDescription="Slots the #1  stage lost. Fetch  stalls count.",
                   PublicDescription="All of it, at length.",
                   Threshold={"BaseFormula": "", "ThresholdIssues": "$issueBW, ~overlap"})
        lines = pi.metric_lines(model([n]), n, "node", "1")
        self.assertIn("  desc Slots the number 1 stage lost.", lines)
        self.assertIn("  brief Slots the \\#1 stage lost. Fetch stalls count.", lines)
        self.assertIn("  long All of it, at length.", lines)
        self.assertIn("  issues $issueBW, ~overlap", lines)
        n["BriefDescription"] = "Only one sentence."
        n["PublicDescription"] = "Only one sentence."
        lines = pi.metric_lines(model([n]), n, "node", "1")
        self.assertFalse([ln for ln in lines if ln.startswith(("  brief", "  long"))])

    def test_retire_latency_is_an_input_not_the_count(self):
        n = metric("L2_Hit_Latency", "mem_load_retired.l2_hit * mem_load_retired.l2_hit:"
                   "retire_latency", ["MEM_LOAD_RETIRED.L2_HIT",
                                      "MEM_LOAD_RETIRED.L2_HIT:retire_latency"])
        m = model([n])
        self.assertEqual(pi.render(m.formula(n)),
                         "MEM_LOAD_RETIRED.L2_HIT * MEM_LOAD_RETIRED.L2_HIT:retire_latency")
        self.assertEqual(m.retire_latency, {"MEM_LOAD_RETIRED.L2_HIT"})

    def test_retire_latency_defaults_are_intels_means(self):
        import json
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "r.json"), "w") as f:
                json.dump({"Data": {"A.B": {"MIN": 0, "MAX": 9, "MEAN": 63.76},
                                    "C.D": {"MEAN": 19}, "UNREAD.X": {"MEAN": 1}}}, f)
            saved = dict(pi.RETIRE_LATENCY_FILES)
            pi.RETIRE_LATENCY_FILES["tst"] = "r.json"
            try:
                head, lines = pi.latency_lines("tst", d, {"A.B", "C.D", "E.F"})
                self.assertEqual(lines, ["retire_latency A.B 63.76", "retire_latency C.D 19"])
                self.assertIn("E.F", " ".join(head))    # published by nobody: said, not made up
                self.assertEqual(pi.latency_lines("tst", d, set()), ([], []))
                with open(os.path.join(d, "r.json"), "w") as f:
                    json.dump({"Data": {"A.B": {"MEAN": -1}}}, f)
                import contextlib
                import io
                err = io.StringIO()
                with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
                    pi.latency_lines("tst", d, {"A.B"})
                self.assertIn("MEAN -1 is not a number of cycles", err.getvalue())
            finally:
                pi.RETIRE_LATENCY_FILES.clear()
                pi.RETIRE_LATENCY_FILES.update(saved)

    def test_gnr_defaults_match_intels_file(self):
        """The shipped gnr.cpu carries every MEAN of Intel's file that gnr.tma reads."""
        import json
        with open(os.path.join(ROOT, "tools", "perfmon", "graniterapids_retire_latency.json")) as f:
            data = json.load(f)["Data"]
        with open(os.path.join(ROOT, "user", "model", "builtin", "gnr.cpu")) as f:
            got = {w[1]: float(w[2]) for w in (ln.split() for ln in f)
                   if w and w[0] == "retire_latency"}
        read = set()
        for name in ("gnr.tma", "gnr@5.1.tma"):     # every TMA version gnr.cpu serves
            with open(os.path.join(ROOT, "user", "model", "builtin", name)) as f:
                read |= pi.model_text_facts(f.read(), name)[1]
        self.assertEqual(len(read), 28)
        self.assertEqual(got, {e: data[e]["MEAN"] for e in read if e in data})
        self.assertEqual(got["MEM_INST_RETIRED.LOCK_LOADS"], 63.76)

    def test_hand_written_spr_501_carries_intels_words(self):
        """spr@5.01.tma is hand-written: its brief and issues lines must be Intel's 5.01 text."""
        import json
        with open(os.path.join(ROOT, "tools", "perfmon",
                               "sapphirerapids_metrics_tma5.01.json")) as f:
            intel = {m["MetricName"]: m for m in json.load(f)["Metrics"]}
        logical, cur = [], ""
        with open(os.path.join(ROOT, "user", "model", "builtin", "spr@5.01.tma")) as f:
            for line in f.read().split("\n"):
                if line.endswith("\\"):
                    cur += line[:-1].strip() + " "
                    continue
                logical.append(cur + line.strip())
                cur = ""
        node, checked = None, 0
        for line in logical:
            words = line.split(" ", 1)
            if words[0] in ("node", "info", "count"):
                node = line.split()[-1]
            elif words[0] in ("brief", "issues"):
                m = intel[node]
                want = (pi.text_value(m["BriefDescription"], node) if words[0] == "brief"
                        else pi.issues_text(m))
                self.assertEqual(" ".join(words[1].split()), want, node)
                checked += 1
        self.assertGreater(checked, 236)

    def test_cwf_is_srfs_tree_with_cwfs_encodings(self):
        """Intel publishes no TMA file for Clearwater Forest: cwf.tma must be srf.tma's tree
        node for node, and cwf.cpu must encode each event from CWF's own core file."""
        import json
        builtin = os.path.join(ROOT, "user", "model", "builtin")

        def nodes(path):
            out, cur = [], None
            with open(path) as f:
                for ln in f.read().replace("\\\n", " ").split("\n"):
                    w = ln.split("#", 1)[0].split()
                    if w[:1] == ["node"]:
                        cur = [w[1], w[2]]
                        out.append(cur)
                    elif w[:1] in (["info"], ["helper"], ["const"], ["count"]):
                        cur = None
                    elif cur and w[:1] in (["formula"], ["threshold"]):
                        cur.append(" ".join(w))
            return out
        srf, cwf = nodes(os.path.join(builtin, "srf.tma")), nodes(os.path.join(builtin, "cwf.tma"))
        self.assertEqual(len(cwf), 26)
        self.assertEqual(cwf, srf)
        with open(os.path.join(ROOT, "tools", "perfmon", "clearwaterforest_core.json")) as f:
            core = {e["EventName"]: e for e in json.load(f)["Events"]}
        with open(os.path.join(builtin, "cwf.cpu")) as f:
            lines = [ln.strip() for ln in f if ln.startswith("event ")]
        self.assertTrue(lines)
        for ln in lines:
            self.assertEqual(ln, pi.event_line(core[ln.split()[1]]))
        self.assertIn("event TOPDOWN_FE_BOUND.ALL_P event=0x9c umask=0x01 counters=0-7", lines)

    def test_unknown_modifier_stops_the_import(self):
        n = metric("X", "mem_load_retired.l2_hit:weird", ["MEM_LOAD_RETIRED.L2_HIT:weird"])
        with self.assertRaisesRegex(pi.ImportError_, "modifier :weird"):
            model([n]).formula(n)

    def test_event_missing_from_core_json_stops_the_import(self):
        n = metric("X", "no_such.event", ["NO_SUCH.EVENT"])
        with self.assertRaisesRegex(pi.ImportError_, "NO_SUCH.EVENT is not in t_core.json"):
            model([n]).formula(n)

    def test_uncore_and_system_inputs_leave_the_metric_out(self):
        a = info("Info_System_Socket_CLKS", "unc_cha_clockticks:one_unit",
                 ["UNC_CHA_CLOCKTICKS:one_unit"])
        b = info("Info_System_CPU_Utilization", "num_cpus", [])
        m = model([a, b])
        with self.assertRaisesRegex(pi.LeftOut, "uncore event UNC_CHA_CLOCKTICKS"):
            m.formula(a)
        with self.assertRaisesRegex(pi.LeftOut, "number of CPUs"):
            m.formula(b)

    def test_override_is_tied_to_intels_formula(self):
        n = metric("L2_Hit_Latency", "mem_load_retired.l2_hit", ["MEM_LOAD_RETIRED.L2_HIT"])
        key = ("tst", "L2_Hit_Latency")
        pi.OVERRIDES[key] = ("0" * 16, "2 * mem_load_retired.l2_hit", "because")
        try:
            with self.assertRaisesRegex(pi.ImportError_, "Intel's BaseFormula changed"):
                model([n]).formula(n)
            digest = pi.hashlib.sha256(b"mem_load_retired.l2_hit").hexdigest()[:16]
            pi.OVERRIDES[key] = (digest, "2 * mem_load_retired.l2_hit", "because")
            self.assertEqual(pi.render(model([n]).formula(n)), "2 * MEM_LOAD_RETIRED.L2_HIT")
        finally:
            del pi.OVERRIDES[key]


class Thresholds(unittest.TestCase):
    def test_percent_thresholds_become_fractions_and_self_leads(self):
        fl = metric("Fetch_Latency", "idq_uops_not_delivered.core / tma_info_thread_slots",
                    ["IDQ_UOPS_NOT_DELIVERED.CORE"], level=2, parent="Frontend_Bound",
                    legacy="metric_TMA_..Fetch_Latency(%)",
                    threshold="metric_TMA_..Fetch_Latency(%) > 10 & "
                              "metric_TMA_Frontend_Bound(%) > 15 | "
                              "metric_TMA_Frontend_Bound(%) < 2.5")
        m = model([FE, fl, SLOTS, CORE_CLKS])
        self.assertEqual(m.threshold(FE), "> 0.15")
        self.assertEqual(m.threshold(fl),
                         "> 0.1 and Frontend_Bound > 0.15 or Frontend_Bound < 0.025")

    def test_info_thresholds_keep_their_numbers(self):
        ipc = info("Info_Thread_IPC", "idq_uops_not_delivered.core",
                   ["IDQ_UOPS_NOT_DELIVERED.CORE"])
        ipc["Threshold"] = {"BaseFormula": "metric_TMA_Info_Thread_IPC / 4 > 0.35"}
        self.assertEqual(model([ipc]).threshold(ipc), "Info_Thread_IPC / 4 > 0.35")


class Tree(unittest.TestCase):
    def test_numbers_follow_the_tree_and_a_wrong_parent_is_fixed_from_the_threshold(self):
        be = metric("Backend_Bound", "uops_retired.retire_slots", ["UOPS_RETIRED.RETIRE_SLOTS"])
        cb = metric("Core_Bound", "uops_retired.retire_slots", ["UOPS_RETIRED.RETIRE_SLOTS"],
                    level=2, parent="Backend_Bound", legacy="metric_TMA_..Core_Bound(%)")
        pu = metric("Ports_Utilization", "uops_retired.retire_slots",
                    ["UOPS_RETIRED.RETIRE_SLOTS"], level=3, parent="Core_Bound",
                    legacy="metric_TMA_....Ports_Utilization(%)")
        p0 = metric("Ports_Utilized_0", "uops_retired.retire_slots",
                    ["UOPS_RETIRED.RETIRE_SLOTS"], level=4, parent="Ports_Utilization",
                    legacy="metric_TMA_......Ports_Utilized_0(%)")
        # Intel's SKX file: level 3, ParentCategory a level-4 node.
        so = metric("Serializing_Operation", "uops_retired.retire_slots",
                    ["UOPS_RETIRED.RETIRE_SLOTS"], level=3, parent="Ports_Utilized_0",
                    legacy="metric_TMA_....Serializing_Operation(%)",
                    threshold="metric_TMA_....Serializing_Operation(%) > 10 & "
                              "metric_TMA_..Core_Bound(%) > 10 & metric_TMA_Backend_Bound(%) > 20")
        order, fixes = pi.tree_order(model([FE, be, cb, pu, p0, so]))
        self.assertEqual([(n, m["MetricName"]) for n, m in order],
                         [("1", "Frontend_Bound"), ("2", "Backend_Bound"), ("2.1", "Core_Bound"),
                          ("2.1.1", "Ports_Utilization"), ("2.1.1.1", "Ports_Utilized_0"),
                          ("2.1.2", "Serializing_Operation")])
        self.assertEqual(len(fixes), 1)
        self.assertIn("parent Core_Bound", fixes[0])

    def test_a_missing_parent_comes_from_file_order_and_legacy_name(self):
        """ICX 5.2 leaves ParentCategory out on MEM_Bandwidth and MEM_Latency."""
        be = metric("Backend_Bound", "uops_retired.retire_slots", ["UOPS_RETIRED.RETIRE_SLOTS"])
        l3 = metric("L3_Miss_Bound", "uops_retired.retire_slots", ["UOPS_RETIRED.RETIRE_SLOTS"],
                    level=2, parent="Backend_Bound", legacy="metric_TMA_..L3_Miss_Bound(%)")
        bw = metric("MEM_Bandwidth", "uops_retired.retire_slots", ["UOPS_RETIRED.RETIRE_SLOTS"],
                    level=3, legacy="metric_TMA_....MEM_Bandwidth(%)")
        order, fixes = pi.tree_order(model([FE, be, l3, bw]))
        self.assertEqual(order[-1][0], "2.1.1")
        self.assertIn("parent L3_Miss_Bound", fixes[0])
        bw["LegacyName"] = "metric_TMA_..MEM_Bandwidth(%)"     # dots that disagree: stop
        with self.assertRaisesRegex(pi.ImportError_, "do not confirm its level"):
            pi.tree_order(model([FE, be, l3, bw]))

    def test_a_digit_first_name_is_read_with_a_g(self):
        self.assertEqual(pi.Model.ref_name("4K_Aliasing"), "G4K_Aliasing")


class CpuDescription(unittest.TestCase):
    def test_event_lines(self):
        by = {e["EventName"]: e for e in CORE["Events"]}
        self.assertEqual(pi.event_line(by["CPU_CLK_UNHALTED.THREAD_ANY"]),
                         "event CPU_CLK_UNHALTED.THREAD_ANY event=0x00 umask=0x02 any=1 "
                         "counters=fixed:1")
        self.assertEqual(pi.event_line(by["IDQ_UOPS_NOT_DELIVERED.CORE"]),
                         "event IDQ_UOPS_NOT_DELIVERED.CORE event=0x9c umask=0x01 counters=0-3 "
                         "counters_smt_off=0-7")
        self.assertEqual(pi.event_line(by["OCR.DEMAND_RFO.L3_MISS"]),
                         "event OCR.DEMAND_RFO.L3_MISS event=0xb7 umask=0x01 msr=0x1a6 "
                         "msr_value=0x3f3fc00002 counters=0-3")

    def test_fixed_counter_events_bring_their_general_counter_twins(self):
        by = {e["EventName"]: e for e in CORE["Events"]}
        # THREAD has no THREAD_P in this list, a GP event no twin, a twin is no twin's
        self.assertEqual(pi.fixed_twins({"TOPDOWN.SLOTS", "CPU_CLK_UNHALTED.THREAD",
                                         "UOPS_RETIRED.RETIRE_SLOTS", "TOPDOWN.SLOTS_P"}, by),
                         {"TOPDOWN.SLOTS_P"})

    def test_counter_lists(self):
        self.assertEqual(pi.counters_text("0,2,3"), "0,2,3")
        self.assertEqual(pi.counters_text("1,2,3,4,5,6,7"), "1-7")
        self.assertEqual(pi.counters_text("0"), "0")
        self.assertEqual(pi.counters_text("Fixed counter 3"), "fixed:3")

    def test_events_of_a_model_file(self):
        text = ("model x\ntma_version 1\nhelper H = A.B:c1 + \\\n  C.D # E.F in a comment\n"
                "node 1 N\n  formula PERF_METRICS.RETIRING / H + 0.5 * msr/tsc/\n")
        self.assertEqual(pi.model_text_facts(text, "x.tma"),
                         ({"A.B", "C.D", "PERF_METRICS.RETIRING"}, set(), "1"))
        text += "node 2 L\n  formula C.D * C.D:retire_latency\n"
        self.assertEqual(pi.model_text_facts(text, "x.tma")[1], {"C.D"})


if __name__ == "__main__":
    unittest.main()
