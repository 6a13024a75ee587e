// threes serve: the lobby, a table and a replay, in one page. No library, nothing loaded from elsewhere.
// The server sends each seat only what it may see; this page draws what it is sent.
"use strict";

(function () {
  const app = document.getElementById("app");
  const conn = document.getElementById("conn");
  const toastBox = document.getElementById("toast");
  let meta = null;

  // ---------------------------------------------------------------- helpers --
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  let toastTimer = null;
  function toast(text) {
    toastBox.textContent = text;
    toastBox.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastBox.hidden = true; }, 4000);
  }
  function setSvg(box, text) {
    // the server's SVG, parsed as XML and imported (never evaluated as HTML)
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    clear(box);
    if (svg && svg.nodeName === "svg") box.appendChild(document.importNode(svg, true));
  }
  async function api(path, options) {
    const r = await fetch(path, options);
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    if (!r.ok) throw new Error((body && body.message) || ("HTTP " + r.status));
    return body;
  }
  // a seat as every view names it, as the terminal's threes play does: "seat 2 (greedy)", "seat 0 (Ann)"
  function seatLabel(q, name) {
    let n = (name || "").trim();
    const suffix = " (seat " + q + ")";  // a name an older server made ("greedy (seat 2)")
    if (n.endsWith(suffix) && n.length > suffix.length) n = n.slice(0, -suffix.length).trim();
    return n ? "seat " + q + " (" + n + ")" : "seat " + q;
  }
  function seatName(seats, q) {
    const s = seats && seats[q];
    return s ? seatLabel(q, s.name) : "seat " + q;
  }
  // a rule's value as people read it (never JSON): yes/no, a list's items, "none"
  function valueWords(v) {
    if (v === true) return "yes";
    if (v === false) return "no";
    if (Array.isArray(v)) return v.length ? v.join(" ") : "none";
    if (v === null || v === undefined) return "default";
    return String(v);
  }
  // a registry's meaning for people: without its reStructuredText quotes (``lower``)
  function plain(text) { return String(text).replace(/``/g, ""); }
  function gameTitle(name) {
    const g = meta && meta.games.find(x => x.name === name);
    return g ? g.title : name;
  }
  function placeWord(k) {
    return ["1st", "2nd", "3rd"][k] || (k + 1) + "th";
  }

  // ----------------------------------------------------------------- lobby --
  async function lobby() {
    app.dataset.view = "lobby";
    meta = meta || await api("/api/meta");
    const gameSel = el("select", { id: "game" }, meta.games.map(g => el("option", { value: g.name, text: g.title })));
    const presetSel = el("select", { id: "preset" });
    const presetBox = el("div", { id: "preset-box" }, el("label", { for: "preset", text: "preset" }), presetSel);
    const rules = el("textarea", { id: "rules" });
    const rulesHelp = el("p", { class: "muted small", id: "rules-help" });
    const optionsList = el("ul", { class: "small options", id: "options-list" });
    const optionsBox = el("details", { id: "options-box" }, el("summary", { id: "options-summary" }), optionsList);
    const count = el("select", { id: "seat-count" });
    const seatsBox = el("div", { id: "seats-box" });
    const seed = el("input", { type: "text", id: "seed", placeholder: "random", inputmode: "numeric", size: 18 });
    const created = el("div", { id: "created" });

    function game() { return meta.games.find(g => g.name === gameSel.value); }
    function maxSeats() {
      const g = game();
      return typeof g.max_players === "number" ? g.max_players : (g.max_players[presetSel.value] || meta.max_seats);
    }
    // each game's own options and presets, as the server's registry gives them (/api/meta)
    function refreshGame() {
      const g = game();
      clear(presetSel);
      app.dataset.game = g.name;
      rules.value = "";  // another game's house rules mean nothing here
      const presets = g.presets ? Object.keys(g.presets) : [];
      for (const p of presets) presetSel.appendChild(el("option", { value: p, text: p }));
      presetBox.hidden = presets.length === 0;
      rules.placeholder = (presets.length ? "house rules over the preset" : "options") + ", one NAME=VALUE a line" +
        (g.example ? ", e.g. " + g.example : "");
      refreshCount();
    }
    function refreshOptions() {
      const g = game();
      clear(optionsList);
      let n = 0;
      if (g.presets) {
        const values = g.presets[presetSel.value] || {};
        for (const [k, meaning] of Object.entries(g.rules || {})) {
          optionsList.appendChild(el("li", { "data-option": k }, el("b", { text: k + " = " + valueWords(values[k]) }), ": " + plain(meaning)));
          n++;
        }
        rulesHelp.textContent = "Preset " + presetSel.value + ": change any rule below with NAME=VALUE lines.";
      } else {
        for (const [k, meaning] of Object.entries(g.options || {})) {
          optionsList.appendChild(el("li", { "data-option": k }, el("b", { text: k }), ": " + plain(meaning)));
          n++;
        }
        rulesHelp.textContent = g.title + " has no presets: set any option below with NAME=VALUE lines (empty: the defaults).";
      }
      optionsBox.querySelector("summary").textContent = g.title + ": " + n + (g.presets ? " rules" : " options");
    }
    function refreshCount() {
      refreshOptions();
      const keep = Number(count.value) || 4;
      clear(count);
      for (let n = 2; n <= maxSeats(); n++) count.appendChild(el("option", { value: n, text: n + " seats" }));
      count.value = String(Math.min(keep, maxSeats()));
      refreshSeats();
    }
    function refreshSeats() {
      const old = [...seatsBox.querySelectorAll(".seatrow")].map(r => ({
        kind: r.querySelector(".kind").value, name: r.querySelector(".name").value, bot: r.querySelector(".bot").value }));
      clear(seatsBox);
      const n = Number(count.value);
      for (let q = 0; q < n; q++) {
        const prev = old[q] || { kind: q < 2 ? "person" : "bot", name: "", bot: "greedy" };
        const kind = el("select", { class: "kind", "aria-label": "seat " + q + " kind" },
          el("option", { value: "person", text: "person" }), el("option", { value: "bot", text: "bot" }));
        kind.value = prev.kind;
        const bot = el("select", { class: "bot", "aria-label": "seat " + q + " bot" },
          game().bots.map(b => el("option", { value: b, text: b })));
        if (game().bots.includes(prev.bot)) bot.value = prev.bot;
        const name = el("input", { type: "text", class: "name", maxlength: 24, placeholder: "name", value: prev.name });
        const sync = () => { bot.hidden = kind.value !== "bot"; };
        kind.addEventListener("change", sync);
        sync();
        seatsBox.appendChild(el("div", { class: "seatrow", "data-seat": q }, el("span", { text: "seat " + q }), kind, name, bot));
      }
    }
    gameSel.addEventListener("change", refreshGame);
    presetSel.addEventListener("change", refreshCount);
    count.addEventListener("change", refreshSeats);

    async function create(ev) {
      ev.preventDefault();
      const seats = [...seatsBox.querySelectorAll(".seatrow")].map(r => {
        const kind = r.querySelector(".kind").value;
        const s = { kind, name: r.querySelector(".name").value.trim() || null };
        if (kind === "bot") s.bot = r.querySelector(".bot").value;
        return s;
      });
      const body = { game: gameSel.value, seats, rules: rules.value };
      if (game().presets) body.preset = presetSel.value;
      if (seed.value.trim() !== "") body.seed = Number(seed.value.trim());
      let t;
      try {
        t = await api("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      } catch (e) { toast("Could not create the table: " + e.message); return; }
      showCreated(t);
      refreshLists();  // the new table is listed at once
    }
    function showCreated(t) {
      const links = [];
      t.seats.forEach((s, q) => {
        if (t.secrets[q]) links.push({ q, name: s.name, url: location.origin + "/t/" + t.table + "#seat=" + q + "&secret=" + t.secrets[q] });
      });
      try { localStorage.setItem("threes.table." + t.table, JSON.stringify(links)); } catch (e) { /* private mode */ }
      clear(created).appendChild(el("div", { class: "panel", id: "created-panel" },
        el("h2", { text: "Table " + t.table + " is ready" }),
        el("p", { class: "muted", id: "created-seed", text: (t.seed !== null && t.seed !== undefined
          ? "You chose seed " + t.seed + ": every seat is shown it before play (the deal was chosen by the creator)."
          : "The deal is secret: its seed is published when the game ends.") + " Send each person their own link: it is their seat's key." }),
        el("ul", { class: "links plain" }, links.map(l => el("li", { "data-seat": l.q },
          el("b", { text: seatLabel(l.q, l.name) + ": " }), el("a", { href: l.url, class: "join-link", text: "sit here" }), " ",
          el("button", { class: "secondary copy", type: "button", onclick: () => { navigator.clipboard && navigator.clipboard.writeText(l.url); toast("link copied"); } }, "copy link"),
          el("br"), el("code", { text: l.url })))),
        el("p", {}, el("a", { href: "/t/" + t.table, text: "watch as a spectator" }))));
    }

    const form = el("form", { class: "panel", id: "create-form", onsubmit: create },
      el("h2", { text: "New table" }),
      el("label", { for: "game", text: "game" }), gameSel,
      presetBox,
      el("label", { for: "rules", text: "house rules" }), rules, rulesHelp, optionsBox,
      el("label", { for: "seat-count", text: "seats (each a person or a bot)" }), count, seatsBox,
      el("label", { for: "seed", text: "seed (empty: random)" }), seed,
      el("p", {}, el("button", { type: "submit", id: "create" }, "Create table")));
    const tablesList = el("ul", { class: "plain", id: "tables" });
    const gamesList = el("ul", { class: "plain", id: "games" });
    clear(app).appendChild(el("div", { class: "lobby" },
      el("div", {}, form, created),
      el("div", {},
        el("div", { class: "panel" }, el("h2", { text: "Tables" }), tablesList),
        el("div", { class: "panel" }, el("h2", { text: "Finished games (replay)" }), gamesList))));
    refreshGame();
    // the lists of tables and finished games: now, after each table made here, and every few seconds
    let listing = false;
    async function refreshLists() {
      if (listing) return;
      listing = true;
      try {
        const [tables, games] = await Promise.all([api("/api/tables"), api("/api/games?limit=30")]);
        clear(tablesList);
        if (!tables.tables.length) tablesList.appendChild(el("li", { class: "muted", text: "none yet" }));
        for (const t of tables.tables.slice().reverse()) {
          tablesList.appendChild(el("li", { "data-table": t.table }, el("a", { href: "/t/" + t.table, text: t.title + " \u00b7 " + t.seats.map(s => seatLabel(s.seat, s.name)).join(", ") }),
            el("span", { class: "muted", text: t.over ? "  (over)" : "  (move " + t.move_number + ")" })));
        }
        clear(gamesList);
        if (!games.games.length) gamesList.appendChild(el("li", { class: "muted", text: "none yet" }));
        for (const g of games.games) {
          const names = g.seats.map((s, q) => seatLabel(q, s.name));
          const first = g.result && g.result.places ? names[g.result.places[0]] : "?";
          gamesList.appendChild(el("li", { "data-game": g.id }, el("a", { href: "/replay/" + g.id, text: "#" + g.id + " " + gameTitle(g.game) + ": " + names.join(", ") }),
            el("span", { class: "muted", text: "  won by " + first + ", " + (g.result ? g.result.moves : "?") + " moves" })));
        }
      } catch (e) { toast(e.message); }
      finally { listing = false; }
    }
    await refreshLists();
    setInterval(() => { if (app.dataset.view === "lobby" && !document.hidden) refreshLists(); }, 10000);
  }

  // ----------------------------------------------------------------- table --
  function tableView(tableId) {
    app.dataset.view = "table";
    const params = new URLSearchParams(location.hash.slice(1));
    const seat = params.has("seat") ? Number(params.get("seat")) : null;
    const secret = params.get("secret");
    let ws = null, retry = 0, current = null, seats = [], logCount = 0;

    const status = el("div", { class: "status", id: "status", text: "connecting\u2026" });
    const board = el("div", { id: "board" });
    const moves = el("div", { id: "moves" });
    const hints = el("ul", { class: "hints", id: "hints" });
    const storage = el("div", { class: "away", id: "storage", role: "alert", hidden: true });
    const away = el("div", { class: "away", id: "away", hidden: true },
      "A bot is playing your seat while you were away. ",
      el("button", { type: "button", id: "back", onclick: () => send({ type: "back" }) }, "I'm back"));
    const seatsList = el("ul", { class: "plain seats", id: "seat-list" });
    const log = el("ol", { class: "plain", id: "log" });
    const result = el("div", { class: "result", id: "result", hidden: true });
    clear(app).appendChild(el("div", { class: "tableview" },
      el("div", {}, board),
      el("div", {},
        el("div", { class: "panel" }, status, storage, away, moves, hints),
        result,
        el("div", { class: "panel" }, el("h3", { text: "Seats" }), seatsList),
        el("div", { class: "panel" }, el("h3", { text: "What happened" }), log))));

    function send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    }
    function drawSeats() {
      clear(seatsList);
      seats.forEach(s => {
        const badges = [];
        if (s.kind === "bot") badges.push(el("span", { class: "badge", text: "bot " + s.bot }));
        else badges.push(el("span", { class: "badge" + (s.connected ? "" : " off"), text: s.connected ? "here" : "not connected" }));
        if (s.away) badges.push(el("span", { class: "badge off", text: "away: a bot plays" }));
        seatsList.appendChild(el("li", { class: current && current.to_move === s.seat ? "to-move" : "", "data-seat": s.seat },
          el("span", { text: seatLabel(s.seat, s.name) + (s.seat === seat ? ", you" : "") }), badges));
      });
      const me = seats[seat];
      away.hidden = !(me && me.away);
    }
    function drawLog(entries, replace) {
      if (replace) { clear(log); logCount = 0; }
      for (const e of entries) {
        for (const line of e.text) {
          log.appendChild(el("li", { "data-n": e.n, "data-move": e.move, "data-seat": e.seat }, el("span", { class: "n", text: "#" + (e.n + 1) }), line));
          logCount++;
        }
      }
      while (log.childNodes.length > 400) log.removeChild(log.firstChild);
      log.scrollTop = log.scrollHeight;
    }
    function drawResult(f) {
      if (!f.over || !f.result) { result.hidden = true; return; }
      const r = f.result;
      const names = f.seats.map(s => seatLabel(s.seat, s.name));
      const order = el("ol", { id: "finish-order" }, r.places.map((q, k) => el("li", { "data-seat": q },
        names[q] + (f.last_place && k === r.places.length - 1 && !r.truncated ? ", the " + f.last_place : "") +
        (r.scores ? " \u2014 " + r.scores[q] + " points" : ""))));
      const how = r.stalemate ? "ended as a stalemate" : r.truncated ? "cut at the move cap" : "over";
      clear(result).appendChild(el("div", { class: "panel" },
        el("h3", { text: "Game " + f.game_number + " " + how + " after " + r.moves + " moves" }), order,
        el("p", { class: "muted", text: "Seed " + f.seed + ". The game is stored: see the lobby's replays." }),
        seat !== null ? el("button", { type: "button", id: "rematch", onclick: () => send({ type: "rematch" }) }, "Play again") : null));
      result.hidden = false;
    }
    function onState(f) {
      current = f;
      seats = f.seats;
      app.dataset.moveNumber = f.move_number;
      app.dataset.toMove = f.to_move === null ? "" : f.to_move;
      app.dataset.over = f.over ? "1" : "0";
      app.dataset.viewer = f.viewer === null ? "spectator" : f.viewer;
      setSvg(board, f.svg);
      clear(moves);
      clear(hints);
      const mine = f.moves.length > 0;
      if (f.over) status.textContent = "Game over.";
      else if (mine) status.textContent = "Your move (" + f.title + ", game " + f.game_number + ")";
      else status.textContent = seatName(f.seats, f.to_move) + " to move" + (seat === null ? " \u2014 you are watching" : "");
      status.classList.toggle("yours", mine);
      for (const m of f.moves) {
        moves.appendChild(el("button", { type: "button", class: "move", "data-action": m.id, "data-text": m.text, title: m.text,
          onclick: () => {
            for (const b of moves.querySelectorAll("button")) b.disabled = true;
            send({ type: "act", action: m.id, move_number: f.move_number });
          } }, m.label));
      }
      for (const h of f.hints || []) hints.appendChild(el("li", { text: h }));
      if (f.seed_chosen && !f.over) hints.appendChild(el("li", { class: "seed-note", text: "The deal was chosen by the creator: seed " + f.seed + " (whoever knows it can know every card)." }));
      drawLog(f.log, f.history);
      drawSeats();
      drawResult(f);
    }
    function connect() {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
      ws = new WebSocket(url);
      ws.addEventListener("open", () => {
        retry = 0;
        conn.dataset.state = "open";
        const join = { type: "join", table: tableId };
        if (seat !== null && secret) { join.seat = seat; join.secret = secret; }
        ws.send(JSON.stringify(join));
      });
      ws.addEventListener("message", ev => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        if (msg.type === "state") onState(msg);
        else if (msg.type === "seats") { seats = msg.seats; drawSeats(); }
        else if (msg.type === "storage") {  // the server cannot save moves: the table waits until it can
          storage.textContent = msg.ok ? "" : "The server cannot save moves just now (" + msg.message + "). The table waits; nothing you were told is saved is lost.";
          storage.hidden = !!msg.ok;
          if (msg.ok) toast("storage is working again");
        }
        else if (msg.type === "error") {
          toast(msg.message);
          if (msg.code === "no_table" || msg.code === "bad_secret") { status.textContent = msg.message; ws.close(); retry = -1; }
          for (const b of moves.querySelectorAll("button")) b.disabled = false;
        }
      });
      ws.addEventListener("close", () => {
        conn.dataset.state = "closed";
        if (retry < 0) return;
        retry = Math.min(retry + 1, 8);
        setTimeout(connect, 400 * retry);  // a new connection rejoins the seat and gets its view back
      });
    }
    connect();
  }

  // ---------------------------------------------------------------- replay --
  async function replayView(gameId) {
    app.dataset.view = "replay";
    const rec = await api("/api/games/" + encodeURIComponent(gameId));
    const steps = rec.actions.length;
    let step = 0;
    const board = el("div", { id: "board" });
    const info = el("div", { class: "status", id: "replay-status" });
    const said = el("ul", { class: "plain", id: "replay-log" });
    const range = el("input", { type: "range", min: 0, max: steps, value: 0, id: "replay-range" });
    const names = rec.labels || rec.seats.map((s, q) => seatLabel(q, s.name));
    const view = el("select", { id: "replay-view" }, el("option", { value: "all", text: "every card (the game is over)" }),
      el("option", { value: "public", text: "public view" }), rec.seats.map((s, q) => el("option", { value: q, text: "as " + names[q] })));
    async function show(k) {
      step = Math.max(0, Math.min(steps, k));
      range.value = step;
      try {
        const f = await api("/api/games/" + gameId + "/replay?step=" + step + "&view=" + view.value);
        setSvg(board, f.svg);
        app.dataset.step = f.step;
        info.textContent = "move " + f.step + " of " + f.steps + (f.last ? ": " + names[f.last.seat] + " \u2014 " + f.last.move : " (the deal)");
        clear(said);
        if (f.last) for (const line of f.last.text) said.appendChild(el("li", { text: line }));
        if (f.over && f.result) said.appendChild(el("li", { text: "Finishing order: " + f.result.places.map(q => names[q]).join("; ") }));
      } catch (e) { toast(e.message); }
    }
    const bar = el("div", { class: "replaybar" },
      // plain text labels (Latin-1 only): every font draws them
      el("button", { type: "button", id: "first", title: "the deal", onclick: () => show(0) }, "\u00ab first"),
      el("button", { type: "button", id: "prev", title: "one move back", onclick: () => show(step - 1) }, "\u2039 back"),
      el("button", { type: "button", id: "next", title: "one move forward", onclick: () => show(step + 1) }, "forward \u203a"),
      el("button", { type: "button", id: "last", title: "the end", onclick: () => show(steps) }, "last \u00bb"), range, view);
    range.addEventListener("input", () => show(Number(range.value)));
    view.addEventListener("change", () => show(step));
    const r = rec.result;
    clear(app).appendChild(el("div", { class: "tableview" },
      el("div", {}, bar, board),
      el("div", {},
        el("div", { class: "panel" }, el("h3", { text: "Game #" + rec.id + " (" + (rec.title || rec.game) + ")" }), info, said),
        el("div", { class: "panel" },
          el("p", { text: "Seed " + rec.seed + ", " + rec.num_players + " players, " + steps + " moves, finished " + rec.finished_at }),
          el("p", { id: "replay-options", text: "Rules: " + (rec.options_words || "the default rules") + "." }),
          (rec.rules_words && rec.rules_words.length) ? el("details", { id: "replay-rules" }, el("summary", { text: "every rule in words" }),
            el("ul", { class: "small" }, rec.rules_words.map(line => el("li", { text: line })))) : null,
          el("ol", { id: "replay-places" }, r.places.map((q, k) => el("li", { "data-seat": q, text: names[q] +
            (rec.last_place && k === r.places.length - 1 && !r.truncated ? ", the " + rec.last_place : "") +
            (r.scores ? " \u2014 " + r.scores[q] + " points" : "") })))))));
    show(0);
  }

  // ---------------------------------------------------------------- routing --
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9_-]+)$/))) tableView(m[1]);
  else if ((m = path.match(/^\/replay\/(\d+)$/))) replayView(m[1]).catch(e => toast(e.message));
  else lobby().catch(e => toast(e.message));
})();
