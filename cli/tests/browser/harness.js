// The browser test's harness (see cli/tests/browser.rs): loads each run's report page
// in the frame, drives it as a user would and writes its verdict into #verdict.
"use strict";
const failures = [];
window.addEventListener("error", (e) => failures.push("harness: " + e.message));

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function load(frame, src) {
  return new Promise((resolve) => {
    frame.onload = () => resolve();
    frame.src = src;
  });
}

async function check(run) {
  const fail = (what) => failures.push(run.name + ": " + what);
  const frame = document.getElementById("frame");
  await load(frame, run.page + "#game=1&ply=3");
  await wait(50);
  const win = frame.contentWindow;
  const doc = frame.contentDocument;
  if (!doc || !doc.getElementById("board")) {
    fail("the page cannot be read in the frame, or has no #board");
    return;
  }
  const $ = (id) => doc.getElementById(id);
  const overlay = () => $("overlay").innerHTML;
  // What a ply may change: the board, or only the notes under it (a die rolled).
  const shown = () => overlay() + "\n" + $("notes").textContent;
  const counter = () => $("counter").textContent;
  const current = () => {
    const item = doc.querySelector("#moves li.current");
    return item ? Number(item.dataset.ply) : 0;
  };
  const key = async (name) => {
    doc.dispatchEvent(new win.KeyboardEvent("keydown", { key: name, bubbles: true }));
    await wait(20);
  };
  const expect = (what, got, wanted) => {
    if (got !== wanted) fail(what + ": got " + JSON.stringify(got) + ", expected " + JSON.stringify(wanted));
  };
  const plies = run.plies;

  const cells = doc.querySelectorAll("#cells polygon").length;
  expect("cell polygons of the board", cells, run.cells);
  expect("legend symbols drawn", $("legend").children.length > 0, true);
  expect("rows in the list of games", $("game-list").tBodies[0].rows.length, run.games);

  // The fragment opens game 1 after 3 plies.
  expect("counter at #game=1&ply=3", counter(), "ply 3 / " + plies);
  expect("highlighted move at #game=1&ply=3", current(), 3);
  expect("heading at #game=1&ply=3", $("heading").textContent.startsWith("Game 1:"), true);
  expect("pieces drawn at ply 3", $("overlay").children.length > 0, true);
  expect("notice at ply 3", $("notice").hidden, true);
  const atThree = shown();

  await key("Home");
  expect("counter after Home", counter(), "ply 0 / " + plies);
  expect("fragment after Home", win.location.hash, "#game=1&ply=0");
  const atStart = overlay();
  const shownAtStart = shown();
  expect("position at ply 3 differs from the start's", atThree !== shownAtStart, true);

  await key("ArrowRight");
  expect("counter after Right", counter(), "ply 1 / " + plies);
  expect("highlighted move after Right", current(), 1);
  expect("position changes on Right", shown() !== shownAtStart, true);

  await key("ArrowLeft");
  expect("counter after Left", counter(), "ply 0 / " + plies);
  expect("board after Right then Left is the start's", overlay(), atStart);

  await key("End");
  expect("counter after End", counter(), "ply " + plies + " / " + plies);
  expect("highlighted move after End", current(), plies);
  expect("fragment after End", win.location.hash, "#game=1&ply=" + plies);
  const atEnd = overlay();

  // Past the end: the final position, with a notice.
  win.location.hash = "#game=1&ply=" + (plies + 5);
  await wait(50);
  expect("counter past the end", counter(), "ply " + plies + " / " + plies);
  expect("board past the end is the final one", overlay(), atEnd);
  expect("notice shown past the end", !$("notice").hidden && $("notice").textContent.includes("past its end"), true);

  // A game the run does not have: a notice, the position stays.
  win.location.hash = "#game=99&ply=0";
  await wait(50);
  expect("notice for a game the run lacks", $("notice").textContent.includes("no game 99"), true);
  expect("board after naming a game the run lacks", overlay(), atEnd);

  // Another game, from its list row.
  $("game-list").tBodies[0].rows[0].click();
  await wait(20);
  expect("heading after clicking the first row", $("heading").textContent.startsWith("Game 0:"), true);
  expect("fragment after clicking the first row", win.location.hash, "#game=0&ply=0");
  expect("notice after opening another game", $("notice").hidden, true);

  // At each compared ply of game 1, the page draws what `agon show --svg` draws.
  for (const show of run.shows) {
    win.location.hash = "#game=1&ply=" + show.ply;
    await wait(50);
    expect("counter at #game=1&ply=" + show.ply, counter(), "ply " + show.ply + " / " + plies);
    expect("the ply told at #game=1&ply=" + show.ply, $("told").textContent, show.told);
    compareWithShow((what) => fail("ply " + show.ply + ": " + what), doc, show.svg);
  }

  for (const error of win.__errors || ["the error hook is missing"]) fail(error);
}

// An element as comparable text: its name, its attributes sorted by name, then its
// children's texts, or its own text when it has no children.
function describe(element) {
  const attributes = Array.from(element.attributes)
    .map((a) => a.name + "=" + JSON.stringify(a.value))
    .sort();
  const children = Array.from(element.children);
  const inside = children.length ? "{" + children.map(describe).join(" ") + "}"
    : JSON.stringify(element.textContent);
  return element.localName + "[" + attributes.join(" ") + "]" + inside;
}

// Fails with the first element where two lists of descriptions part.
function compareLists(fail, what, page, shown) {
  const n = Math.max(page.length, shown.length);
  for (let i = 0; i < n; i++) {
    if (page[i] !== shown[i]) {
      const cut = (text) => (text === undefined ? "nothing" : text.slice(0, 300));
      fail(what + " differs from `agon show --svg` at element " + (i + 1) + " of " +
        shown.length + " (the page has " + page.length + "): the page draws " + cut(page[i]) +
        ", agon show draws " + cut(shown[i]));
      return;
    }
  }
}

// The page's board (cells, then overlay), notes and legend against the standalone
// picture `svg`: its background, then the same cells and overlay, note lines (the
// top-level texts of font size 14) and the legend's group, last.
function compareWithShow(fail, doc, svg) {
  const picture = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  if (picture.localName !== "svg") {
    fail("agon show's SVG does not parse");
    return;
  }
  const top = Array.from(picture.children);
  const legend = top[top.length - 1];
  const isNote = (e) => e.localName === "text" && e.getAttribute("font-size") === "14";
  const drawn = top.slice(1, -1).filter((e) => !isNote(e));
  const notes = top.filter(isNote).map((e) => e.textContent);
  const board = Array.from(doc.getElementById("cells").children)
    .concat(Array.from(doc.getElementById("overlay").children));
  compareLists(fail, "the board", board.map(describe), drawn.map(describe));
  compareLists(fail, "the notes",
    Array.from(doc.getElementById("notes").children).map((e) => JSON.stringify(e.textContent)),
    notes.map((n) => JSON.stringify(n)));
  compareLists(fail, "the legend", Array.from(doc.getElementById("legend").children).map(describe),
    Array.from(legend.children).map(describe));
  // Nothing in the page's style sheet may paint a cell other than its fill says.
  for (const cell of doc.querySelectorAll("#cells polygon")) {
    const wanted = cell.getAttribute("fill");
    const rgb = "rgb(" + [1, 3, 5].map((k) => parseInt(wanted.slice(k, k + 2), 16)).join(", ") + ")";
    const got = doc.defaultView.getComputedStyle(cell).fill;
    if (got !== rgb) {
      fail("a cell with fill " + wanted + " is painted " + got);
      return;
    }
  }
}

(async () => {
  for (const run of RUNS) {
    try {
      await check(run);
    } catch (e) {
      failures.push(run.name + ": " + e);
    }
  }
  document.getElementById("verdict").textContent = failures.length
    ? "FAIL\n" + failures.join("\n")
    : "PASS " + RUNS.map((r) => r.name).join(" ");
})();
