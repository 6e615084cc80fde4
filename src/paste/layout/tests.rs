//! Tests of the line reader: sums, integrals, fractions and limits as pdftotext gives them.

use super::*;

fn read_back(text: &str) -> String {
    read(text).text
}

#[test]
fn a_display_sum_and_its_limits_as_pdftotext_gives_them() {
    assert_eq!(read_back("X=\n\nn\nX\ni=1\n\nXi ."), "X= \\sum_{i=1}^{n} Xi .");
    assert_eq!(read_back("H(X) = −\n\nX\ni\n\npi log pi"), "H(X) = − \\sum_{i} pi log pi");
    assert_eq!(read_back("H = −\n\nXX\nx\n\ny\n\np(x, y)"), "H = − \\sum_{x} \\sum_{y} p(x, y)");
    assert_eq!(read_back("−\n\nXX\ni∈V j∈V\n\nxij"), "− \\sum_{i∈V} \\sum_{j∈V} xij");
    assert_eq!(read_back("γ\n\nX\ns′ ∈S\n\nP (s′ | s)"), "γ \\sum_{s′ ∈S} P (s′ | s)");
    assert_eq!(read_back("c +\n\nm\nX\n\nm\nX\n\nu=1 v=1\n\nzuv"), "c + \\sum_{u=1}^{m} \\sum_{v=1}^{m} zuv");
    // A limit with TeX's `,\ ` and italic corrections in it, alone and beside another.
    assert_eq!(read_back("N\nX\ni=1, xi ∼p(x)\n\nlog q(xi )"), "\\sum_{i=1, xi ∼p(x)}^{N} log q(xi )");
    assert_eq!(
        read_back("n\nY\n\nY\n\ni=1 −k≤j≤k, j̸=0\n\nq(xi+j | xi )"),
        "\\prod_{i=1}^{n} \\prod_{−k≤j≤k, j̸=0} q(xi+j | xi )"
    );
    assert_eq!(
        read_back("n\nY\n\nY\n\ni=1 −k≤j≤k, j\\neq 0\n\nq"),
        "\\prod_{i=1}^{n} \\prod_{−k≤j≤k, j\\neq 0} q"
    );
    assert_eq!(read_back("1\nY\nt=T −1\n\nP (xt )."), "\\prod_{t=T −1}^{1} P (xt ).");
    let pass = read("X\ni\n\nxi");
    assert_eq!(pass.notes.len(), 1);
    assert!(matches!(
        pass.notes.as_slice(),
        [Warning { kind: WarningKind::PdfText { why: PdfWhy::BigOperator, .. }, .. }]
    ));
}

#[test]
fn integrals_take_their_limits_and_their_place() {
    assert_eq!(read_back("Area(A) =\n\nZ b\nf (x) dx.\na"), "Area(A) = \\int_{a}^{b} f (x) dx.");
    assert_eq!(
        read_back("Z t\nF (t) =\n0\n\nλe−λs ds = 1 − e−λt ."),
        "F (t) = \\int_{0}^{t} λe−λs ds = 1 − e−λt ."
    );
    assert_eq!(read_back("Z\nm=\n\nx p(x) dx.\nRd"), "m= \\int_{Rd} x p(x) dx.");
    assert_eq!(read_back("Z x\nF (x) =\n\nf (y)dy.\n0"), "F (x) = \\int_{0}^{x} f (y)dy.");
    assert_eq!(read_back("Z\nH(X) = −\n\np(x) log p(x) dx.\nx"), "H(X) = − \\int_{x} p(x) log p(x) dx.");
    assert_eq!(read_back("F(x) =\nZ x\n0\nf(y)dy."), "F(x) = \\int_{0}^{x} f(y)dy.");
    assert_eq!(read_back("Z ∞Z ∞\n−∞\n\n−∞\n\ne dx dy."), "\\int_{−∞}^{∞} \\int_{−∞}^{∞} e dx dy.");
}

#[test]
fn fractions_and_limits_on_lines_of_their_own() {
    assert_eq!(read_back("dF\n(x) = f (x).\ndx"), "\\frac{dF}{dx} (x) = f (x).");
    assert_eq!(read_back("pk =\n\nλk e−λ\n.\nk!"), "pk = \\frac{λk e−λ}{k!} .");
    assert_eq!(read_back("d\ndx\n\nf (x)"), "\\frac{d}{dx} f (x)");
    assert_eq!(read_back("lim P (Y ∈ [a, b])\n\nn→∞"), "lim_{n→∞} P (Y ∈ [a, b])");
    assert_eq!(
        read_back("n\n\nminimize\nf\n\n1X\nl(f (x), y),\nn i=1"),
        "minimize_{f} \\frac{1}{n} \\sum_{i=1}^{n} l(f (x), y),"
    );
    assert_eq!(read_back("J\n\nk =\n\nσ2 X\nϕ(x).\nJ i=1"), "k = \\frac{σ2}{J} \\sum_{i=1}^{J} ϕ(x).");
    // Rows with relations are not a fraction.
    assert_eq!(read_back("x ∈ [a, b],\nx > b."), "x ∈ [a, b], x > b.");
}

#[test]
fn one_line_is_left_as_it_is() {
    let pass = read("X = Y + Z");
    assert_eq!(pass.text, "X = Y + Z");
    assert!(pass.notes.is_empty());
}
