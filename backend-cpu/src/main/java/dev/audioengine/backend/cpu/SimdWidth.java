package dev.audioengine.backend.cpu;

import jdk.incubator.vector.FloatVector;

/** The Vector API's preferred float vector on this machine, for the device's arch string. */
final class SimdWidth {
    private SimdWidth() {}

    static String describe() {
        int bits = FloatVector.SPECIES_PREFERRED.vectorBitSize();
        return "(" + bits + "-bit vectors, " + Runtime.getRuntime().availableProcessors() + " threads)";
    }
}
