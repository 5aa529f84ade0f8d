pragma circom 2.0.0;

// A tiny test circuit for cuzk's .r1cs/.wtns readers (tests/test_circom.c).
// out = (a*b*c + 3a + 7) * (b - 5), c public; the -5 and the constant 7 put
// large (r - 5) and constant-wire coefficients into the constraints; the
// linear sum = a + 2c (an output, so circom keeps it) gives an empty A and B.
template Mul() {
    signal input a;
    signal input b;
    signal input c;
    signal output out;
    signal output sum;
    signal t1;
    signal t2;
    t1 <== a * b;
    t2 <== t1 * c;
    out <== (t2 + 3 * a + 7) * (b - 5);
    sum <== a + 2 * c;
}

component main {public [c]} = Mul();
