/**
 * Finding backends: {@link dev.audioengine.api.registry.BackendRegistry} discovers the backend providers on the module
 * or class path through {@link java.util.ServiceLoader}, probes which can run on this machine, and opens them by name.
 */
package dev.audioengine.api.registry;
