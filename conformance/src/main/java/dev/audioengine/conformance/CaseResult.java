package dev.audioengine.conformance;

/**
 * The outcome of one case on one backend. {@code nmse} is NaN when nothing was compared
 * (unsupported, or the run threw); {@code message} says what went wrong, or is null on a pass.
 */
public record CaseResult(ConformanceCase testCase, Status status, double nmse, String message) {

    public enum Status {
        PASS,
        FAIL,
        UNSUPPORTED
    }

    public String op() {
        return testCase.op();
    }

    public String dtype() {
        return testCase.dtype();
    }

    public String shape() {
        return testCase.shape();
    }

    public double bound() {
        return testCase.bound().nmse();
    }
}
