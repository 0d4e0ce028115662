/** Conformance cases, the harness that runs them on a backend against a reference, reports, capability evidence. */
module dev.audioengine.conformance {
    requires transitive dev.audioengine.api;
    requires dev.audioengine.reference;

    exports dev.audioengine.conformance;
}
