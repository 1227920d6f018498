const t0 = performance.now();
for (const m of process.argv.slice(2)) { const t = performance.now(); await import(m); console.log(m, Math.round(performance.now() - t)); }
console.log('total', Math.round(performance.now() - t0));
