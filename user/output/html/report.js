// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
// tmacg's HTML report: renders the JSON in #tmacg-data.  Every name and text
// from the data goes in through textContent (or an SVG <title>'s), never as
// markup: cgroup names are chosen by whoever creates cgroups.
"use strict";
(function () {
	const t0 = performance.now();
	const D = JSON.parse(document.getElementById("tmacg-data").textContent);
	const nodes = D.nodes;
	const l1 = [], l2 = [];
	nodes.forEach((n, i) => (n.level === 1 ? l1 : n.level === 2 ? l2 : []).push(i));
	const colors = ["var(--fe)", "var(--bs)", "var(--be)", "var(--re)", "#76b7b2", "#edc948"];
	const SVGNS = "http://www.w3.org/2000/svg";

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined && text !== null) e.textContent = String(text);
		return e;
	}
	function svg(tag, attrs) {
		const e = document.createElementNS(SVGNS, tag);
		for (const k in attrs) e.setAttribute(k, String(attrs[k]));
		return e;
	}
	// The name a person knows a cgroup by, as the table and live view name it.
	function nameOf(c) {
		if (c.pod) return (c.ns || "?") + "/" + c.pod + (c.container ? "/" + c.container : "");
		return c.path;
	}
	function pct(v) {
		return v === null || v === undefined ? "\u2013" : (100 * v).toFixed(1);
	}
	function seconds(s) {
		if (s === null || s === undefined) return "\u2013";
		if (s >= 3600) return (s / 3600).toFixed(2) + " h";
		if (s >= 60) return (s / 60).toFixed(1) + " min";
		return (+s.toPrecision(4)) + " s";
	}
	// A recording without times (not tmacg's own lines) starts at 0: no date to show.
	function when(t) {
		return t === null || t < 1e9 ? "not recorded" : new Date(t * 1000).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
	}
	function pathText(c) {
		if (c.no_tree) return "Bottleneck: none (" + c.no_tree + ")";
		return "Bottleneck: " + (c.b.length ? c.b.map((i) => nodes[i].name).join(" \u203a ") : "none");
	}

	const app = document.getElementById("app");
	app.textContent = "";

	// --- host summary ---
	app.appendChild(el("h1", null, "tmacg report" + (D.host ? ": " + D.host : "")));
	app.appendChild(el("div", "sub", "Top-down Microarchitecture Analysis per cgroup"));
	const host = el("dl", "host");
	const facts = [
		["Model", D.model + (D.title ? " (" + D.title + ")" : "")],
		["TMA version", D.tma_version || "\u2013"],
		["Kernel", D.kernel || "not recorded"],
		["Interval", seconds(D.interval_s)],
		["Span", (D.start !== null && D.start >= 1e9 ? when(D.start) + " to " + when(D.end) + ", " : "") + seconds(D.end - D.start)],
		["Cgroups", D.cgroups.length + ", tree to level " + D.level],
	];
	for (const [k, v] of facts) {
		host.appendChild(el("dt", null, k));
		host.appendChild(el("dd", null, v));
	}
	app.appendChild(host);

	// --- overview: every cgroup, sortable ---
	const cols = [{ key: "name", label: "Cgroup" }, { key: "cpu", label: "CPU s" }];
	for (const i of l1.concat(l2)) cols.push({ key: "n" + i, node: i, label: nodes[i].name + " %" });
	cols.push({ key: "bneck", label: "Bottleneck" });
	function cellValue(c, col) {
		if (col.key === "name") return nameOf(c);
		if (col.key === "cpu") return c.cpu_s;
		if (col.key === "bneck") return c.b.map((i) => nodes[i].name).join(".");
		return c.v[col.node];
	}
	const wrap = el("div", "tablewrap");
	const table = el("table", "overview");
	const thead = el("thead"), hr = el("tr"), tbody = el("tbody");
	let sortCol = 1, sortAsc = false;
	cols.forEach((col, ci) => {
		const th = el("th", null, col.label);
		th.dataset.col = col.key;
		th.title = col.node !== undefined ? nodes[col.node].desc : "sort";
		th.addEventListener("click", () => {
			sortAsc = sortCol === ci ? !sortAsc : ci === 0;
			sortCol = ci;
			fillTable();
		});
		hr.appendChild(th);
	});
	thead.appendChild(hr);
	table.appendChild(thead);
	table.appendChild(tbody);
	const rows = D.cgroups.map((c, idx) => {
		const tr = el("tr");
		tr.dataset.index = idx;
		for (const col of cols) {
			const v = cellValue(c, col);
			let td;
			if (col.key === "name") {
				td = el("td");
				const a = el("a", null, v);
				a.href = "#cg-" + idx;
				td.appendChild(a);
			} else if (col.key === "bneck") {
				td = el("td", "path", v || "\u2013");
			} else if (col.key === "cpu") {
				td = el("td", null, v === null ? "\u2013" : v.toFixed(2));
			} else {
				td = el("td", c.b.includes(col.node) ? "hot" : null, pct(v));
			}
			td.dataset.col = col.node !== undefined ? nodes[col.node].name : col.key;
			tr.appendChild(td);
		}
		return tr;
	});
	function fillTable() {
		const col = cols[sortCol];
		const order = D.cgroups.map((c, i) => i);
		order.sort((a, b) => {
			const x = cellValue(D.cgroups[a], col), y = cellValue(D.cgroups[b], col);
			if (x === y) return a - b;
			if (x === null || x === undefined) return 1; // no value: last either way
			if (y === null || y === undefined) return -1;
			// numbers in names as numbers: /golden/p3 before /golden/p10, pod-9 before pod-10
			const r = typeof x === "string" ? x.localeCompare(y, undefined, { numeric: true }) : x - y;
			return sortAsc ? r : -r;
		});
		hr.querySelectorAll("th").forEach((th, i) => {
			th.className = i === sortCol ? "sorted" + (sortAsc ? " asc" : "") : "";
		});
		tbody.textContent = "";
		for (const i of order) tbody.appendChild(rows[i]);
	}
	// Busiest first; a recording without CPU time (a golden file) by its order.
	if (!D.cgroups.some((c) => c.cpu_s !== null)) sortCol = 0, sortAsc = true;
	fillTable();
	wrap.appendChild(table);
	app.appendChild(el("h2", null, "Every cgroup"));
	app.appendChild(el("p", "note", "Shares over the whole span: each cgroup's summed slots over its summed slots. Click a column to sort; red: on the cgroup's bottleneck path."));
	app.appendChild(wrap);

	// --- compare two ---
	const toolbar = el("div", "toolbar");
	const pick = [el("select"), el("select")];
	D.cgroups.forEach((c, i) => {
		for (const s of pick) {
			const o = el("option", null, nameOf(c));
			o.value = String(i);
			s.appendChild(o);
		}
	});
	if (D.cgroups.length > 1) pick[1].value = "1";
	const compare = el("div", "compare");
	compare.id = "compare";
	const cmpButton = el("button", null, "Compare");
	function showCompare() {
		compare.textContent = "";
		for (const s of pick) {
			const c = D.cgroups[+s.value], col = el("div");
			col.appendChild(el("h3", null, nameOf(c)));
			col.appendChild(el("div", "bottleneck", pathText(c)));
			col.appendChild(tree(c));
			compare.appendChild(col);
		}
	}
	cmpButton.addEventListener("click", showCompare);
	const descToggle = el("label");
	const cb = el("input");
	cb.type = "checkbox";
	cb.checked = true;
	cb.addEventListener("change", () => document.body.classList.toggle("nodesc", !cb.checked));
	descToggle.appendChild(cb);
	descToggle.appendChild(document.createTextNode(" node descriptions"));
	app.appendChild(el("h2", null, "Side by side"));
	toolbar.appendChild(pick[0]);
	toolbar.appendChild(document.createTextNode("and"));
	toolbar.appendChild(pick[1]);
	toolbar.appendChild(cmpButton);
	toolbar.appendChild(descToggle);
	app.appendChild(toolbar);
	app.appendChild(compare);

	// --- one section per cgroup ---
	function tree(c) {
		const box = el("div", "tree");
		nodes.forEach((n, i) => {
			const row = el("div", "node");
			const onPath = c.b.includes(i), flagged = c.f.includes(i);
			if (onPath) row.classList.add("path");
			if (flagged) row.classList.add("flagged");
			row.dataset.node = n.name;
			row.style.paddingLeft = 4 + 18 * (n.level - 1) + "px";
			row.appendChild(el("span", "name", n.name));
			const bar = el("span", "bar"), fill = el("i");
			const v = c.v[i];
			fill.style.width = v === null ? "0" : Math.max(0, Math.min(100, 100 * v)) + "%";
			bar.appendChild(fill);
			row.appendChild(bar);
			row.appendChild(el("span", "val", v === null ? "\u2013" : pct(v) + "%"));
			const flag = el("span", "flag", flagged ? "\u25B2" : "");
			if (flagged) flag.title = "over its threshold";
			row.appendChild(flag);
			if (n.desc) row.appendChild(el("div", "desc", n.desc));
			box.appendChild(row);
		});
		return box;
	}
	function chart(c) {
		const W = 460, H = 170, L = 34, B = 22, T = 6, R = 8;
		const box = el("div", "chart");
		const s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img" });
		const title = svg("title", {});
		title.textContent = "Level-1 shares over time: " + nameOf(c);
		s.appendChild(title);
		const pts = c.s.length, t = c.t;
		const x0 = c.t0, x1 = pts ? t[pts - 1] : 1;
		const X = (v) => L + ((v - x0) / Math.max(x1 - x0, 1e-9)) * (W - L - R);
		const Y = (v) => T + (1 - v) * (H - T - B);
		for (const g of [0, 0.25, 0.5, 0.75, 1]) {
			s.appendChild(svg("line", { x1: L, x2: W - R, y1: Y(g), y2: Y(g), stroke: "#dadce0" }));
			const lab = svg("text", { x: L - 4, y: Y(g) + 4, "text-anchor": "end", "font-size": 10, fill: "#5f6368" });
			lab.textContent = 100 * g + "%";
			s.appendChild(lab);
		}
		// Stacked areas, level-1 in model order; a point without a tree adds nothing.
		const base = new Array(pts).fill(0);
		l1.forEach((node, k) => {
			const top = c.s.map((p, j) => Math.min(1, base[j] + (p[k] || 0)));
			let d = "";
			// Each point covers its own span: steps, not lines between points.
			for (let j = 0; j < pts; j++) {
				const a = X(j ? t[j - 1] : x0), b = X(t[j]);
				d += (j ? "L" : "M") + a.toFixed(1) + " " + Y(top[j]).toFixed(1) + "L" + b.toFixed(1) + " " + Y(top[j]).toFixed(1);
			}
			for (let j = pts - 1; j >= 0; j--) {
				const a = X(j ? t[j - 1] : x0), b = X(t[j]);
				d += "L" + b.toFixed(1) + " " + Y(base[j]).toFixed(1) + "L" + a.toFixed(1) + " " + Y(base[j]).toFixed(1);
			}
			if (pts) s.appendChild(svg("path", { d: d + "Z", fill: colors[k % colors.length], "fill-opacity": 0.85 }));
			for (let j = 0; j < pts; j++) base[j] = top[j];
		});
		const xl = svg("text", { x: L, y: H - 6, "font-size": 10, fill: "#5f6368" });
		xl.textContent = seconds(Math.max(0, x0));
		const xr = svg("text", { x: W - R, y: H - 6, "font-size": 10, fill: "#5f6368", "text-anchor": "end" });
		xr.textContent = seconds(x1) + " after the start";
		s.appendChild(xl);
		s.appendChild(xr);
		box.appendChild(s);
		const legend = el("div", "legend");
		l1.forEach((node, k) => {
			const item = el("span", null, nodes[node].name);
			item.style.setProperty("--c", colors[k % colors.length]);
			legend.appendChild(item);
		});
		box.appendChild(legend);
		if (c.intervals > pts) box.appendChild(el("div", "note", c.intervals + " intervals drawn as " + pts + " points (each its intervals' slots over their slots)"));
		return box;
	}
	function badge(text, warn, tip) {
		const b = el("span", "badge" + (warn ? " warn" : ""), text);
		if (tip) b.title = tip;
		return b;
	}
	function quality(c) {
		const q = c.q, box = el("div", "quality");
		box.appendChild(badge(c.intervals + (c.intervals === 1 ? " interval, " : " intervals, ") + seconds(c.span_s)));
		box.appendChild(badge("CPU " + (c.cpu_s === null ? "not recorded" : c.cpu_s.toFixed(2) + " s")));
		if (q.running_min !== null)
			box.appendChild(badge("measured " + (100 * q.running_min).toFixed(1) + "% of the time" + (q.running_min < 1 ? (D.level > 3 ? " (groups in turns)" : " (multiplexing)") : ""), q.running_min < 0.9, "the least share of time any counter group ran (quality.running_min)" + (D.level > 3 ? "; at levels 4-6 the deep groups take turns on the PMU, each scaled by its share" : "")));
		else box.appendChild(badge("multiplexing: not recorded"));
		box.appendChild(badge("dropped " + q.dropped, q.dropped > 0, "deltas lost in this cgroup's intervals"));
		box.appendChild(badge("map full " + q.map_full, q.map_full > 0, "of them, lost to a full cgroup map: raise --max-cgroups"));
		if (q.smt_shared) box.appendChild(badge("SMT: core-wide events shared", true));
		if (q.no_tree_intervals) box.appendChild(badge(q.no_tree_intervals + (q.no_tree_intervals === 1 ? " interval" : " intervals") + " without slots", true));
		if (q.missing.length) box.appendChild(badge("not measured: " + q.missing.join(", "), true));
		if (q.unmeasured) for (const [node, why] of Object.entries(q.unmeasured)) box.appendChild(badge("not measured: " + node, true, why + " (quality.unmeasured)"));
		if (q.retire_latency) box.appendChild(badge("retire latency: " + q.retire_latency));
		return box;
	}
	app.appendChild(el("h2", null, "Per cgroup"));
	app.appendChild(el("p", "note", "Each cgroup's level-1 shares over time, and its tree over the whole span: \u25B2 over its threshold, highlighted: the bottleneck path."));
	// The first sections are drawn at once; the rest when scrolled near, so that a
	// report of 1,000 cgroups opens in a second or two (docs/output.md).
	const EAGER = 24;
	function fillPanels(panels, c) {
		panels.textContent = "";
		panels.appendChild(chart(c));
		panels.appendChild(tree(c));
	}
	const lazy = [];
	D.cgroups.forEach((c, idx) => {
		const sec = el("section", "cgroup");
		sec.id = "cg-" + idx;
		sec.dataset.index = idx;
		sec.appendChild(el("h2", null, nameOf(c)));
		if (c.pod) sec.appendChild(el("div", "sub", c.path));
		sec.appendChild(el("div", "bottleneck", pathText(c)));
		sec.appendChild(quality(c));
		const panels = el("div", "panels");
		if (idx < EAGER) {
			fillPanels(panels, c);
		} else {
			panels.classList.add("pending");
			panels.dataset.index = idx;
			panels.appendChild(el("div", "note", "chart and tree drawn when scrolled to"));
			lazy.push(panels);
		}
		sec.appendChild(panels);
		app.appendChild(sec);
	});
	if (lazy.length) {
		const io = new IntersectionObserver((entries) => {
			for (const e of entries) {
				if (!e.isIntersecting) continue;
				io.unobserve(e.target);
				e.target.classList.remove("pending");
				fillPanels(e.target, D.cgroups[+e.target.dataset.index]);
			}
		}, { rootMargin: "1200px 0px" });
		lazy.forEach((p) => io.observe(p));
	}
	// A link to a comparison: report.html#compare=I,J (the cgroups' order in the data).
	const link = /^#compare=(\d+),(\d+)$/.exec(location.hash);
	if (link && +link[1] < D.cgroups.length && +link[2] < D.cgroups.length) {
		pick[0].value = link[1];
		pick[1].value = link[2];
		showCompare();
	}
	document.body.dataset.renderMs = (performance.now() - t0).toFixed(0);
	document.body.dataset.openMs = performance.now().toFixed(0); // since navigation began
	document.body.dataset.ready = "1";
	// After the first frame is drawn: how long the report took to open (docs/output.md).
	requestAnimationFrame(() => setTimeout(() => (document.body.dataset.paintMs = performance.now().toFixed(0))));
})();
