package dev.audioengine.gpu;

import java.lang.foreign.MemorySegment;

/** One unit of work a compiled segment enqueues on its stream: a kernel launch or a library call. */
interface Step {
    void enqueue(MemorySegment stream);
}
