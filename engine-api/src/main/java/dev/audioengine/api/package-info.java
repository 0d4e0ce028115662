/**
 * The engine's entry point: {@link dev.audioengine.api.AudioEngine} opens a backend by type or by the best one
 * available, {@link dev.audioengine.api.BackendType} names the kinds of backend, and {@link
 * dev.audioengine.api.CacheDirectory} locates the per-user cache that model files, prepared weights and compiled
 * kernels share.
 */
package dev.audioengine.api;
