// The replayer and the list of games of a run's report page. Plain JavaScript, no
// libraries. The page never draws a game: every SVG element it shows was written by
// agon's renderer and is only put together here (see cli/src/html/encode.rs for the
// data's layout).
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const $ = (id) => document.getElementById(id);
  // games.csv rows: [index, pairing, agent0, agent1, result0, winner, end reason, plies].
  const byIndex = new Map(D.games.map((g) => [g[0], g]));
  const embeddedCount = Object.keys(D.replays).length;
  const view = { game: null, cells: null, plies: null, ply: 0 };

  function resultText(g) {
    return g[5] < 0 ? "drawn" : "seat " + g[5] + " won";
  }

  // The overlay's id lists at every ply of a game, decoded from its deltas: each ply is
  // [overlay removed, overlay added, notes, told], then what the ply set off (an order
  // firing) where it set off something.
  function decodeOverlay(replay) {
    return decode(replay.p.map((ply) => ply.slice(0, 2)), []);
  }

  // The board's id lists at every ply, from the initial position's (D.cells) and the
  // deltas of the few plies that change a cell ([ply, removed, added] each).
  function decodeCells(replay) {
    const deltas = replay.p.map(() => [[], []]);
    for (const [ply, removed, added] of replay.c) deltas[ply] = [removed, added];
    return decode(deltas, D.cells);
  }

  // Applies each [removed positions, [position, id, ...]] in turn to `start`.
  function decode(deltas, start) {
    const lists = [];
    let current = start;
    for (const [removed, added] of deltas) {
      const gone = new Set(removed);
      const next = current.filter((_, i) => !gone.has(i));
      for (let k = 0; k < added.length; k += 2) next.splice(added[k], 0, added[k + 1]);
      lists.push(next);
      current = next;
    }
    return lists;
  }

  function notice(text) {
    const n = $("notice");
    n.textContent = text || "";
    n.hidden = !text;
  }

  function replayCommand(index) {
    return D.replay + " " + index;
  }

  // Opens game `index` after `ply` plies; a ply past the end shows the final position
  // with a notice. Returns whether the game is embedded.
  function open(index, ply) {
    const g = byIndex.get(index);
    if (!g) {
      notice("This run has no game " + index + " (games 0 to " + (D.games.length - 1) + ").");
      return false;
    }
    const replay = D.replays[String(index)];
    if (!replay) {
      notice("Game " + index + " is not embedded in this page (it embeds " + embeddedCount +
        " of " + D.games.length + " games); watch it in a terminal with: " +
        replayCommand(index));
      return false;
    }
    if (view.game !== index) {
      view.game = index;
      view.replay = replay;
      view.cells = decodeCells(replay);
      view.plies = decodeOverlay(replay);
      drawMoves(replay);
      $("heading").textContent = "Game " + index + ": " + g[2] + " (seat 0) against " + g[3] +
        " (seat 1), " + resultText(g) + " (" + g[6] + ") after " + g[7] + " plies";
      $("slider").max = String(replay.m.length);
      markRow();
    }
    const last = replay.m.length;
    if (ply > last) {
      notice("Game " + index + " has " + last + " plies: ply " + ply +
        " is past its end, so this is its final position.");
      ply = last;
    } else {
      notice("");
    }
    show(ply);
    return true;
  }

  function drawMoves(replay) {
    const list = $("moves");
    list.textContent = "";
    replay.m.forEach((move, i) => {
      const item = document.createElement("li");
      item.textContent = move;
      item.dataset.ply = String(i + 1);
      if (i < replay.o) item.className = "opening";
      item.title = i < replay.o ? "ply " + (i + 1) + " (opening)" : "ply " + (i + 1);
      item.addEventListener("click", () => go(i + 1));
      list.appendChild(item);
    });
  }

  function show(ply) {
    view.ply = ply;
    const replay = view.replay;
    const [, , notes, told, aftermath] = replay.p[ply];
    $("cells").innerHTML = view.cells[ply].map((id) => D.el[id]).join("");
    $("overlay").innerHTML = view.plies[ply].map((id) => D.el[id]).join("");
    $("notes").textContent = "";
    for (const n of notes) {
      const line = document.createElement("div");
      line.textContent = D.tx[n];
      $("notes").appendChild(line);
    }
    $("told").textContent = ply === 0 ? "The start." :
      "Ply " + ply + (ply <= replay.o ? " (opening)" : "") + ": " + D.tx[told] +
      (aftermath === undefined ? "" : "; " + D.tx[aftermath]);
    $("counter").textContent = "ply " + ply + " / " + replay.m.length;
    $("slider").value = String(ply);
    const box = $("moves");
    for (const item of box.children) {
      const current = Number(item.dataset.ply) === ply;
      item.classList.toggle("current", current);
      // Scroll the list alone (never the page) to keep the current move in view.
      if (current && item.offsetTop < box.scrollTop) {
        box.scrollTop = item.offsetTop;
      } else if (current && item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = item.offsetTop + item.offsetHeight - box.clientHeight;
      }
    }
    history.replaceState(null, "", "#game=" + view.game + "&ply=" + ply);
  }

  // Steps to `ply`, within the open game.
  function go(ply) {
    if (view.game === null) return;
    notice("");
    show(Math.max(0, Math.min(ply, view.replay.m.length)));
  }

  // `#game=<index>&ply=<k>`: the game and ply it names; missing parts are null.
  function parseFragment(hash) {
    const found = { game: null, ply: null };
    for (const part of hash.replace(/^#/, "").split("&")) {
      const [key, value] = part.split("=");
      if ((key === "game" || key === "ply") && /^\d+$/.test(value || "")) {
        found[key] = Number(value);
      }
    }
    return found;
  }

  function openFragment() {
    const f = parseFragment(location.hash);
    if (f.game !== null) return open(f.game, f.ply === null ? 0 : f.ply);
    if (view.game === null && D.games.length > 0) {
      const first = Object.keys(D.replays).map(Number).sort((a, b) => a - b)[0];
      if (first !== undefined) return open(first, 0);
      notice("This page embeds no game; watch one in a terminal with: " + replayCommand("INDEX"));
    }
    return false;
  }

  // ---- the list of games: filters and sorting ----
  const columns = [
    ["#", (g) => g[0], true],
    ["pairing", (g) => g[1], true],
    ["seat 0", (g) => g[2], false],
    ["seat 1", (g) => g[3], false],
    ["result", resultText, false],
    ["end", (g) => g[6], false],
    ["plies", (g) => g[7], true],
    ["replay", (g) => (D.replays[String(g[0])] ? "in this page" : replayCommand(g[0])), false],
  ];
  const sort = { column: 0, up: true };
  const filters = {};

  function select(name, label, values) {
    const box = document.createElement("label");
    box.textContent = label + " ";
    const s = document.createElement("select");
    s.id = "filter-" + name;
    for (const [value, text] of [["", "any"]].concat(values)) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      s.appendChild(o);
    }
    s.addEventListener("change", drawList);
    box.appendChild(s);
    $("filters").appendChild(box);
    filters[name] = s;
  }

  function number(name, label) {
    const box = document.createElement("label");
    box.textContent = label + " ";
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.id = "filter-" + name;
    input.addEventListener("input", drawList);
    box.appendChild(input);
    $("filters").appendChild(box);
    filters[name] = input;
  }

  function distinct(values) {
    return Array.from(new Set(values)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  function buildList() {
    const pairings = distinct(D.games.map((g) => g[1]));
    select("pairing", "pairing", pairings.map((p) => {
      const g = D.games.find((x) => x[1] === p);
      return [String(p), p + ": " + g[2] + " / " + g[3]];
    }));
    const agents = distinct(D.games.flatMap((g) => [g[2], g[3]]));
    select("agent", "agent", agents.map((a) => [a, a]));
    select("seat", "in seat", [["0", "0"], ["1", "1"]]);
    select("result", "result", [["0", "seat 0 won"], ["1", "seat 1 won"], ["-1", "drawn"]]);
    select("end", "end", distinct(D.games.map((g) => g[6])).map((e) => [e, e]));
    number("min", "plies from");
    number("max", "to");
    const head = document.createElement("tr");
    columns.forEach(([name], c) => {
      const th = document.createElement("th");
      th.textContent = name;
      th.addEventListener("click", () => {
        sort.up = sort.column === c ? !sort.up : true;
        sort.column = c;
        drawList();
      });
      head.appendChild(th);
    });
    $("game-list").tHead.appendChild(head);
    $("embedded").textContent = "This page embeds " + embeddedCount + " of the run's " +
      D.games.length + " games (at most " + D.cap + ", each pairing's first games; " +
      "agon report DIR --html --html-games N embeds more). Click a row to watch it; " +
      "watch any game in a terminal with: " + D.replay + " INDEX.";
    drawList();
  }

  function kept(g) {
    const f = (name) => filters[name].value;
    if (f("pairing") !== "" && g[1] !== Number(f("pairing"))) return false;
    if (f("agent") !== "") {
      const seats = f("seat") === "" ? [0, 1] : [Number(f("seat"))];
      if (!seats.some((s) => g[2 + s] === f("agent"))) return false;
    }
    if (f("result") !== "" && g[5] !== Number(f("result"))) return false;
    if (f("end") !== "" && g[6] !== f("end")) return false;
    if (f("min") !== "" && g[7] < Number(f("min"))) return false;
    if (f("max") !== "" && g[7] > Number(f("max"))) return false;
    return true;
  }

  function drawList() {
    const [, key, numeric] = columns[sort.column];
    const rows = D.games.filter(kept).sort((a, b) => {
      const x = key(a), y = key(b);
      const order = numeric ? x - y : String(x).localeCompare(String(y));
      return (sort.up ? order : -order) || a[0] - b[0];
    });
    const body = $("game-list").tBodies[0];
    body.textContent = "";
    for (const g of rows) {
      const tr = document.createElement("tr");
      tr.dataset.game = String(g[0]);
      if (!D.replays[String(g[0])]) tr.className = "absent";
      for (const [, value, isNumber] of columns) {
        const td = document.createElement("td");
        td.textContent = String(value(g));
        if (isNumber) td.className = "n";
        tr.appendChild(td);
      }
      tr.addEventListener("click", () => {
        open(g[0], 0);
        $("watch").scrollIntoView();
      });
      body.appendChild(tr);
    }
    Array.from($("game-list").tHead.rows[0].cells).forEach((th, c) => {
      th.className = c === sort.column ? (sort.up ? "up" : "down") : "";
    });
    markRow();
  }

  function markRow() {
    for (const tr of $("game-list").tBodies[0].rows) {
      tr.classList.toggle("current", Number(tr.dataset.game) === view.game);
    }
  }

  // ---- controls ----
  $("start").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(view.ply - 1));
  $("forward").addEventListener("click", () => go(view.ply + 1));
  $("end").addEventListener("click", () => go(Infinity));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const to = { ArrowLeft: view.ply - 1, ArrowRight: view.ply + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined || view.game === null) return;
    e.preventDefault();
    go(to);
  });
  window.addEventListener("hashchange", openFragment);

  buildList();
  openFragment();
})();
