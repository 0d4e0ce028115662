/**
 * The float64 reference evaluator that defines what every op of the graph API computes, one {@code <Family>Reference}
 * class per op family; the conformance cases compare each backend against it.
 */
package dev.audioengine.reference;
