/**
 * The GPU runtime table a vendor backend fills in (memory, streams, modules, launches), with the buffers, pinned
 * staging memory and virtual-memory pools the executor builds on it.
 */
package dev.audioengine.gpu.runtime;
