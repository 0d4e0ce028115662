/** The float64 reference evaluator: every op of the graph API computed plainly in double precision. */
module dev.audioengine.reference {
    requires transitive dev.audioengine.api;

    exports dev.audioengine.reference;
}
