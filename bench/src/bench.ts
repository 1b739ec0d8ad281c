// The benchmark runner is built by the benchmarks issue.
console.log('bench: not built yet');
