// Run a MicroPython script on MicroPython's WebAssembly port (a 32-bit
// MicroPython: 4-byte pointers, small ints in 31 bits), with firmware
// folders laid out as a board's flash.
//
//   node tools/wasm/run.mjs [--path DIR]... [--cwd DIR] [--heapsize BYTES]
//                           [--pystack WORDS] SCRIPT
//
// --path DIR  copy the files under DIR to the root of the port's (in-memory)
//             file system, sub-folders kept: DIR/scopa/engine.mpy becomes
//             /scopa/engine.mpy, as on a board's flash. Given more than once,
//             the first folder holding a file wins (MICROPYPATH's order).
//             Folders named __pycache__ or starting with "." are skipped.
// --cwd DIR   the board's own files (saved games and the like): copied to
//             the root too (after the --path folders, which win), and after
//             the run every file the script created, changed or removed
//             outside the --path files is written back to (removed from) DIR.
// --heapsize  the heap the port starts with (default 1 MiB). It grows on
//             demand, so no limit is enforced: measure with gc.mem_alloc().
// --pystack   words of Python stack (default 2048, the port's).
//
// The script runs as __main__ with the working folder "/" and the board's
// sys.path ['', '.frozen', '/lib']. Its stdout goes to stdout; an uncaught
// exception prints its traceback on stderr and exits 1 (SystemExit: its
// code). Exit 2: bad arguments. No stdin.
//
// Steps, for measuring the heap: this port's heap grows instead of being
// collected while Python code runs (wasm keeps locals outside the memory a
// collector could scan), so gc.collect() only asks for a collection, carried
// out when control is back at the top level (here, in JavaScript). When the
// script defines a function wasm_step(), the runner calls it after the
// script, again and again while it returns a true value: each call starts
// with the collection asked for, so gc.mem_alloc() at its start is the true
// live heap.

import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const USAGE =
    "usage: node run.mjs [--path DIR]... [--cwd DIR] [--heapsize BYTES] [--pystack WORDS] SCRIPT";
// Folders of the port's own file system, never part of the board's flash.
const SYSTEM = new Set(["/tmp", "/home", "/dev", "/proc"]);
const STEP = "wasm_step";

function fail(msg) {
    process.stderr.write(`run.mjs: ${msg}\n${USAGE}\n`);
    process.exit(2);
}

function parseArgs(argv) {
    const a = { path: [], cwd: null, heapsize: 1 << 20, pystack: 2048, script: null };
    for (let i = 0; i < argv.length; i++) {
        const k = argv[i];
        const v = () => (i + 1 < argv.length ? argv[++i] : fail(`${k} needs a value`));
        if (k === "--path") a.path.push(v());
        else if (k === "--cwd") a.cwd = v();
        else if (k === "--heapsize") a.heapsize = parseInt(v(), 10);
        else if (k === "--pystack") a.pystack = parseInt(v(), 10);
        else if (k.startsWith("--") || a.script !== null) fail(`unexpected argument ${k}`);
        else a.script = k;
    }
    if (a.script === null) fail("no script given");
    if (!(a.heapsize > 0) || !(a.pystack > 0)) fail("--heapsize and --pystack take a number");
    return a;
}

// [relative path, absolute host path] of every file under `dir`.
function hostFiles(dir, rel = "") {
    const out = [];
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        if (e.name.startsWith(".") || e.name === "__pycache__") continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) out.push(...hostFiles(dir, r));
        else if (e.isFile() && !e.name.endsWith(".pyc")) out.push([r, path.join(dir, r)]);
    }
    return out;
}

// Every regular file of the port's file system outside SYSTEM: "/a/b" paths.
function wasmFiles(FS, dir = "/") {
    const out = [];
    for (const name of FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        const p = dir === "/" ? `/${name}` : `${dir}/${name}`;
        if (SYSTEM.has(p)) continue;
        const mode = FS.stat(p).mode;
        if (FS.isDir(mode)) out.push(...wasmFiles(FS, p));
        else if (FS.isFile(mode)) out.push(p);
    }
    return out;
}

function put(FS, p, data) {
    FS.mkdirTree(path.posix.dirname(p));
    FS.writeFile(p, data);
}

const args = parseArgs(process.argv.slice(2));
const code = fs.readFileSync(args.script, "utf8");

// stdout byte by byte (no line buffering: a last line without "\n" is kept).
const outBytes = [];
const flush = () => {
    if (outBytes.length) process.stdout.write(Buffer.from(outBytes.splice(0)));
};
const mp = await loadMicroPython({
    heapsize: args.heapsize,
    pystack: args.pystack,
    linebuffer: false,
    stdout: (b) => {
        outBytes.push(b[0]);
        if (outBytes.length >= 4096) flush();
    },
    stderr: (b) => process.stderr.write(b),
});
const FS = mp.FS;

const firmware = new Map(); // "/rel" -> its bytes, from the --path folders
for (const dir of args.path) {
    for (const [rel, abs] of hostFiles(dir)) {
        const p = `/${rel}`;
        if (firmware.has(p)) continue;
        const data = fs.readFileSync(abs);
        firmware.set(p, data);
        put(FS, p, data);
    }
}
const own = new Set(); // the --cwd files copied in
if (args.cwd !== null) {
    fs.mkdirSync(args.cwd, { recursive: true });
    for (const [rel, abs] of hostFiles(args.cwd)) {
        const p = `/${rel}`;
        if (firmware.has(p)) continue;
        put(FS, p, fs.readFileSync(abs));
        own.add(p);
    }
}
FS.chdir("/");

let status = 0;
try {
    mp.runPython(code);
    // The steps (see the top): each call is a new entry from the top level,
    // where the collection that gc.collect() asked for is carried out.
    const step = mp.globals.get(STEP);
    if (typeof step === "function") while (step()) {}
} catch (e) {
    if (e.name !== "PythonError") throw e;
    if (e.type === "SystemExit") {
        // "...SystemExit: 3\n": the code, or 1 for a message, 0 for none
        const m = /SystemExit: ?(.*)\n?$/.exec(e.message);
        const v = m ? m[1].trim() : "";
        status = v === "" || v === "None" ? 0 : /^-?\d+$/.test(v) ? Number(v) & 255 : 1;
        if (status && !/^-?\d+$/.test(v)) process.stderr.write(`${v}\n`);
    } else {
        flush();
        process.stderr.write(e.message.endsWith("\n") ? e.message : `${e.message}\n`);
        status = 1;
    }
}
flush();

if (args.cwd !== null) {
    const left = new Set();
    for (const p of wasmFiles(FS)) {
        const data = FS.readFile(p);
        const fw = firmware.get(p);
        left.add(p);
        if (fw !== undefined && Buffer.compare(Buffer.from(data), fw) === 0) continue;
        const host = path.join(args.cwd, p.slice(1));
        fs.mkdirSync(path.dirname(host), { recursive: true });
        fs.writeFileSync(host, data);
    }
    for (const p of own) {
        if (!left.has(p)) fs.rmSync(path.join(args.cwd, p.slice(1)), { force: true });
    }
}
process.exitCode = status;
