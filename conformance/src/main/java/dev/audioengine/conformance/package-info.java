/**
 * The conformance cases (one {@code <Family>Cases} class per op family) and the harness that runs them on a backend
 * against the float64 reference, with the reports and capability evidence a backend's declared capabilities rest on.
 */
package dev.audioengine.conformance;
