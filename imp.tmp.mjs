const t0 = performance.now();
await import('./dist/src/server/create-server.js');
console.log('import create-server', Math.round(performance.now() - t0));
