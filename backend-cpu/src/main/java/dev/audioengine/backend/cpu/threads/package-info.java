/**
 * The CPU backend's worker pool and how many of its threads each op splits over; used by the kernels, which know
 * nothing of how the threads are kept.
 */
package dev.audioengine.backend.cpu.threads;
