/* ---- compare.js ---- */
