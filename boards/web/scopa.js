// The Scopa handheld in a page: MicroPython's WebAssembly port runs the
// firmware (compiled by mpy-cross, as for a board) on the web board
// (board.py, see its docstring), a turn of the app at a time from a timer.
//
// - The screen: the board's framebuf, drawn on the canvas at the largest
//   integer scale that fits the window (mono: dark on light, as the
//   simulator's PNGs; colour: RGB565 in the ST7789's byte order).
// - The keys: arrows, Enter/Space/X = A, Backspace/Esc/Z = B, and the
//   on-screen buttons (touch or mouse).
// - The flash: the files the firmware writes in /flash are kept in
//   localStorage (one key, written whole after any turn that changed them),
//   and put back in /flash before the app starts: a reload resumes as a
//   power cut does on the device. Where the browser blocks that storage
//   the game plays all the same, nothing saved, and the page says so.
//   The page hidden (a reload, a tab closed, a phone's switch to another
//   app), what waits for a timed save is written at once (writeNow).
// - window.scopa: what the page's tests read (status, timings).

import { loadMicroPython } from "./micropython.mjs";

const FLASH_KEY = "scopa.flash"; // {name: base64 of the file}
const BOARD_KEY = "scopa.board"; // "mono" or "colour"
const FLASH = "/flash";
const FIRMWARE = "/fw";
const FRAME = "/frame.bin"; // board.FRAME
const INK = [24, 24, 32]; // tools/png.py INK: a lit mono pixel
const PAPER = [240, 240, 232]; // tools/png.py PAPER
const BITS = { up: 1, down: 2, left: 4, right: 8, a: 16, b: 32 }; // ui/buttons.py
const KEYS = {
    ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
    Enter: "a", " ": "a", x: "a", X: "a",
    Backspace: "b", Escape: "b", z: "b", Z: "b",
};

// The page's localStorage, or null where the browser blocks it (site data
// blocked: reading it throws): the game plays, unsaved, and the status
// line says so (BLOCKED) whenever it has nothing else to say.
let storage = null;
try {
    storage = window.localStorage;
    storage.getItem(BOARD_KEY); // (some browsers throw only here; a short one)
} catch {
    storage = null;
}
const BLOCKED = "Not saved: the browser blocks this page's storage.";

const params = new URLSearchParams(location.search);
const boardName = params.get("board") || (storage && storage.getItem(BOARD_KEY)) || "mono";
const colour = boardName === "colour";
const W = colour ? 240 : 128;
const H = colour ? 135 : 64;

const canvas = document.getElementById("lcd");
const statusLine = document.getElementById("status");
const ctx = canvas.getContext("2d");
canvas.width = W;
canvas.height = H;
const image = ctx.createImageData(W, H);

const page = {
    ready: false,
    error: null,
    board: colour ? "colour" : "mono",
    busy: false, // waiting for another tab to close (holdFlash)
    loadMs: null, // from the navigation's start to the first frame drawn
    frames: 0,
    turns: 0,
    maxTurnMs: 0, // the longest turn of the app (the page cannot answer meanwhile)
    maxGapMs: 0, // the longest gap between two beats of the page's own 10 ms timer
    log: [], // the firmware's printed lines (the last 200)
    status: () => (board ? board.status() : "screen=none"),
    resetStats() {
        this.maxTurnMs = 0;
        this.maxGapMs = 0;
        this.turns = 0;
        lastBeat = performance.now();
    },
    pixels: () => Array.from(image.data), // the canvas's own RGBA pixels
};
window.scopa = page;

function say(text) {
    statusLine.textContent = text;
}

// The status line with nothing else to say: empty, or the storage blocked.
function sayNothing() {
    say(storage ? "" : BLOCKED);
}

// --- the screen --------------------------------------------------------------

function fit() {
    // the largest integer scale that fits, on whole device pixels (or each
    // screen pixel would straddle two)
    const dpr = window.devicePixelRatio || 1;
    const box = document.getElementById("screen").getBoundingClientRect();
    const room = Math.min((box.width - 24) * dpr / W, (Math.max(box.height, 80) - 24) * dpr / H);
    const scale = Math.max(1, Math.floor(room));
    const cw = W * scale, ch = H * scale; // device pixels
    canvas.style.width = `${cw / dpr}px`;
    canvas.style.height = `${ch / dpr}px`;
    canvas.style.left = `${Math.round((box.width * dpr - cw) / 2) / dpr}px`;
    canvas.style.top = `${Math.max(0, Math.round((box.height * dpr - ch) / 2)) / dpr}px`;
}
window.addEventListener("resize", fit);

function draw(mp) {
    let data;
    try {
        data = mp.FS.readFile(FRAME);
    } catch {
        return;
    }
    const px = image.data;
    let o = 0;
    if (colour) {
        for (let i = 0; i + 1 < data.length; i += 2) {
            const v = (data[i] << 8) | data[i + 1]; // big-endian, as the ST7789 reads it
            const r = (v >> 11) & 0x1f, g = (v >> 5) & 0x3f, b = v & 0x1f;
            px[o] = (r << 3) | (r >> 2);
            px[o + 1] = (g << 2) | (g >> 4);
            px[o + 2] = (b << 3) | (b >> 2);
            px[o + 3] = 255;
            o += 4;
        }
    } else {
        for (let y = 0; y < H; y++) {
            const row = (y >> 3) * W;
            const bit = 1 << (y & 7);
            for (let x = 0; x < W; x++) {
                const c = data[row + x] & bit ? INK : PAPER;
                px[o] = c[0];
                px[o + 1] = c[1];
                px[o + 2] = c[2];
                px[o + 3] = 255;
                o += 4;
            }
        }
    }
    ctx.putImageData(image, 0, 0);
    page.frames++;
    if (page.loadMs === null) page.loadMs = performance.now();
}

// Asleep (the display off), a dark screen and a word of how to wake it.
let asleep = 0;
function showAsleep(off) {
    if (off === asleep) return;
    asleep = off;
    canvas.style.filter = off ? "brightness(0.2)" : "";
    if (off) say("Asleep: any key wakes it.");
    else sayNothing();
}

// --- the flash in localStorage -------------------------------------------------

function b64(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
        s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(s);
}

function unb64(text) {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
}

let saved = {}; // name -> base64, as in localStorage
let flashNote = ""; // what the status line says once the page runs

// A blob that does not parse (cut short, edited): kept whole under
// FLASH_KEY + ".bad", and every entry it still holds whole is taken back.
// (Cut to nothing, there is nothing to keep: an earlier .bad stays.)
function salvage(raw) {
    if (raw) {
        try {
            storage.setItem(FLASH_KEY + ".bad", raw);
        } catch {
            // no room: the entries taken back below are all there is
        }
    }
    const out = {};
    for (const m of raw.matchAll(/"([^"\\/]+)"\s*:\s*"([A-Za-z0-9+/=]*)"/g)) out[m[1]] = m[2];
    const n = Object.keys(out).length;
    flashNote = raw
        ? `Saves damaged: ${n} file${n === 1 ? "" : "s"} taken back, the rest kept as ${FLASH_KEY}.bad.`
        : "Saves lost: the browser kept them empty.";
    try {
        storage.setItem(FLASH_KEY, JSON.stringify(out));
    } catch {
        // kept in the page: the next sync writes it
    }
    return out;
}

function restoreFlash(FS) {
    FS.mkdir(FLASH);
    restored = true; // (from here a write by another tab is newer than this one's)
    if (!storage) {
        flashNote = BLOCKED;
        return;
    }
    const raw = storage.getItem(FLASH_KEY); // null: a first visit
    try {
        saved = raw === null ? {} : JSON.parse(raw);
    } catch {
        saved = null; // (an empty string too: a blob cut to nothing)
    }
    if (!saved || typeof saved !== "object" || Array.isArray(saved)) saved = salvage(raw);
    let bad = 0;
    for (const [name, data] of Object.entries(saved)) {
        if (!/^[^/]+$/.test(name)) continue; // the flash's own files only
        try {
            FS.writeFile(`${FLASH}/${name}`, unb64(data));
        } catch {
            bad++; // not base64: left out, as a file the store finds missing
        }
    }
    if (bad && !flashNote) {
        // whole JSON, damaged files: kept as the blob that does not parse is
        try {
            storage.setItem(FLASH_KEY + ".bad", raw);
        } catch {
            // no room: the files taken back are all there is
        }
        flashNote = `Saves damaged: ${bad} file${bad === 1 ? "" : "s"} left out, kept in ${FLASH_KEY}.bad.`;
    }
}

// One page at a time on the saves, as one simulator on a flash folder: a
// second tab wrote its own flash over the first's (its game lost unsaid).
// The Web Locks API holds the saves for the tab until it closes; a second
// tab says so and starts when the first one closes. Without it (not a
// secure context: the page over http from another host than this one)
// the storage event stops a page whose saves another tab wrote.
const BUSY = "Scopa is open in another tab: play there, or close it and this one starts.";
function holdFlash() {
    if (!navigator.locks) return Promise.resolve();
    return new Promise((resolve) => {
        // (a request refused, e.g. in a sandboxed frame: the storage event's guard)
        const refused = () => {
            page.busy = false;
            resolve();
        };
        navigator.locks.request(FLASH_KEY, { ifAvailable: true }, (lock) => {
            if (lock === null) {
                say(BUSY);
                page.busy = true;
                navigator.locks.request(FLASH_KEY, () => {
                    page.busy = false;
                    sayNothing();
                    resolve();
                    return new Promise(() => {}); // held until the tab closes
                }).catch(refused);
                return undefined;
            }
            resolve();
            return new Promise(() => {});
        }).catch(refused);
    });
}

let restored = false; // this tab read the saves (restoreFlash)
let foreign = false; // another tab wrote them since: this one stops
const FOREIGN = "The saves were changed in another tab: reload this one to play on from them.";
window.addEventListener("storage", (e) => {
    if (e.key !== FLASH_KEY || !restored) return;
    foreign = true;
    say(FOREIGN);
});

const NOT_SAVED = "Not saved: ";
let unsaved = false; // the last sync failed: said until one passes
function syncFlash(FS) {
    if (!storage) return; // (said: BLOCKED)
    const now = {};
    let changed = false;
    for (const name of FS.readdir(FLASH)) {
        if (name === "." || name === "..") continue;
        const p = `${FLASH}/${name}`;
        if (!FS.isFile(FS.stat(p).mode)) continue;
        const data = b64(FS.readFile(p));
        now[name] = data;
        if (saved[name] !== data) changed = true;
    }
    if (!changed && Object.keys(now).length === Object.keys(saved).length) return;
    try {
        storage.setItem(FLASH_KEY, JSON.stringify(now)); // one write: all or nothing
        saved = now;
        if (unsaved && statusLine.textContent.startsWith(NOT_SAVED)) say("");
        unsaved = false;
    } catch (e) {
        // (the copy in the page stays: the next turn tries again)
        unsaved = true;
        say(NOT_SAVED + (e.name === "QuotaExceededError"
            ? "the browser's storage for this page is full."
            : `the browser refused it (${e.name}).`));
    }
}

// --- the firmware ----------------------------------------------------------------

// firmware.pack: "SCPK", the index's length (4 bytes, little-endian), the
// index (JSON: [[path, size], ...]), then the files' bytes in its order.
function unpack(FS, buf) {
    const bytes = new Uint8Array(buf);
    const magic = String.fromCharCode(...bytes.subarray(0, 4));
    if (magic !== "SCPK") throw new Error("firmware.pack: not a firmware pack");
    const n = new DataView(buf).getUint32(4, true);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    let o = 8 + n;
    for (const [path, size] of index) {
        const full = `${FIRMWARE}/${path}`;
        FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
        FS.writeFile(full, bytes.subarray(o, o + size));
        o += size;
    }
    return index.length;
}

// --- the keys ----------------------------------------------------------------------

let board = null;
let fs = null; // the port's file system, once the app runs
const held = new Set();

function press(name, down) {
    if (!board || foreign || down === held.has(name)) return;
    if (flashNote && storage) {
        flashNote = ""; // read: the first key takes the note away
        say("");
    }
    if (down) held.add(name);
    else held.delete(name);
    board.key(BITS[name], down);
    const b = document.querySelector(`#pad button[data-key="${name}"]`);
    if (b) b.classList.toggle("down", down);
}

window.addEventListener("keydown", (e) => {
    const name = KEYS[e.key];
    if (!name || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!e.repeat) press(name, true);
});
window.addEventListener("keyup", (e) => {
    const name = KEYS[e.key];
    if (!name) return;
    e.preventDefault();
    press(name, false);
});
window.addEventListener("blur", () => {
    for (const name of [...held]) press(name, false);
});
for (const b of document.querySelectorAll("#pad button")) {
    const name = b.dataset.key;
    b.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        b.setPointerCapture(e.pointerId);
        press(name, true);
    });
    for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) {
        b.addEventListener(ev, () => press(name, false));
    }
    b.addEventListener("contextmenu", (e) => e.preventDefault());
}

const select = document.getElementById("board");
select.value = page.board;
select.addEventListener("change", () => {
    try {
        storage.setItem(BOARD_KEY, select.value);
    } catch {
        // blocked or full: the URL says it all the same
    }
    location.search = `?board=${select.value}`;
});

// --- hidden: what waits is written ---------------------------------------------------

// The app saves a changed setting or the round being typed at most a second
// after the change (app._SAVE_MS): a reload, a tab closed or a phone's
// switch to another app (after which the page may be killed unsaid)
// within that second lost it. Hidden, the app writes it now (board.flush)
// and the flash is kept at once, the player's move shown played; shown
// again, the app plays on. A computer's move shown is shown again when the
// page comes back (ui.table's quit), but for one that is not its level's,
// played when the page goes for good (not kept for the back button).
function writeNow(play) {
    if (!board || !fs || foreign || page.error) return;
    board.flush(play);
    syncFlash(fs);
}
window.addEventListener("pagehide", (e) => writeNow(!e.persisted));
document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") writeNow(false);
});

// --- the page's own beat: how long it ever waits ------------------------------

let lastBeat = performance.now();
setInterval(() => {
    const t = performance.now();
    page.maxGapMs = Math.max(page.maxGapMs, t - lastBeat);
    lastBeat = t;
}, 10);

// --- start ---------------------------------------------------------------------------

async function main() {
    fit();
    const out = (line) => {
        page.log.push(line);
        if (page.log.length > 200) page.log.shift();
        console.log(line);
    };
    const [mp, pack] = await Promise.all([
        loadMicroPython({ stdout: out, stderr: out, linebuffer: true }),
        fetch("firmware.pack").then((r) => {
            if (!r.ok) throw new Error(`firmware.pack: ${r.status}`);
            return r.arrayBuffer();
        }),
    ]);
    const FS = mp.FS;
    unpack(FS, pack);
    await holdFlash();
    restoreFlash(FS);
    FS.chdir(FLASH);
    mp.runPython(`
import sys
sys.path[:] = ["${FIRMWARE}"]
import board
board.configure(${colour ? 1 : 0})
board.start()
`);
    board = mp.pyimport("board");
    fs = FS;
    const step = board.step;
    page.ready = true;
    say(flashNote);
    const turn = () => {
        if (foreign) return; // (said: the storage event)
        const t = performance.now();
        let r;
        try {
            r = step();
        } catch (e) {
            // the app wrote what waited and drew "Scopa stopped:" (app.stop)
            page.error = String(e.message || e);
            say(`The firmware stopped:\n${page.error}`);
            try {
                draw(mp);
            } finally {
                syncFlash(FS);
            }
            throw e;
        }
        const dt = performance.now() - t;
        page.turns++;
        if (dt > page.maxTurnMs) page.maxTurnMs = dt;
        if (r & 1) draw(mp);
        showAsleep((r >> 11) & 1);
        syncFlash(FS);
        setTimeout(turn, (r >> 1) & 1023);
    };
    turn();
}

if ("serviceWorker" in navigator) {
    // offline once loaded: sw.js keeps every file of the page
    navigator.serviceWorker.register("sw.js").catch(() => {});
}

main().catch((e) => {
    page.error = String(e.message || e);
    say(`Could not start: ${page.error}`);
    console.error(e);
});
