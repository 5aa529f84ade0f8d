pragma circom 2.0.0;

// Interop circuit for tests/oracle/run_snarkjs.sh: a chain of N steps
//   u_i = t_(i-1)^2,   t_i = u_i (k + i) + 5 t_(i-1) - p
// with public inputs x, p, private k and output y: 2N + 2 constraints,
// constants and large coefficients (-5, -1) in every step, and public
// signals in A, B and C.
template Chain(N) {
    signal input x;
    signal input p;
    signal input k;
    signal output y;
    signal t[N + 1];
    signal u[N];
    t[0] <== (x + k) * (p - 3);
    for (var i = 1; i <= N; i++) {
        u[i - 1] <== t[i - 1] * t[i - 1];
        t[i] <== u[i - 1] * (k + i) + 5 * t[i - 1] - p;
    }
    y <== t[N] * x;
}

component main {public [x, p]} = Chain(500);
