/**
 * Capabilities: the ops and element types a backend declares it supports, each verified by conformance evidence, and
 * the overrides that switch capabilities off for diagnosis; the compiler places an op on a backend only when the
 * backend has its capability.
 */
package dev.audioengine.api.capability;
