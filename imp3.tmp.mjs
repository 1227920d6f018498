const t=performance.now(); await import('./dist/src/config/config.js'); console.log('config', Math.round(performance.now()-t));
const t2=performance.now(); await import('./dist/src/server/port-check.js'); console.log('port', Math.round(performance.now()-t2));
