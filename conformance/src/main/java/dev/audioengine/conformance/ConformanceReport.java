package dev.audioengine.conformance;

import dev.audioengine.conformance.CaseResult.Status;
import java.util.List;

/** All results of one backend's run, with the seed that replays it. */
public record ConformanceReport(String backend, String device, String reference, long seed, List<CaseResult> results) {

    public ConformanceReport {
        results = List.copyOf(results);
    }

    public long count(Status s) {
        return results.stream().filter(r -> r.status() == s).count();
    }

    public long passed() {
        return count(Status.PASS);
    }

    public long failed() {
        return count(Status.FAIL);
    }

    public long unsupported() {
        return count(Status.UNSUPPORTED);
    }

    public List<CaseResult> failures() {
        return results.stream().filter(r -> r.status() == Status.FAIL).toList();
    }
}
