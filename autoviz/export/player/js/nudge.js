/* ---- nudge.js ---- */
