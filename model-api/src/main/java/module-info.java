/** What model tasks share above the graph API: the output formats of their results. */
module dev.audioengine.model {
    exports dev.audioengine.model.output;
}
