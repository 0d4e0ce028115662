package dev.audioengine.models;

import dev.audioengine.api.capability.Capability;

import java.util.Set;

/** A family of models (silero_vad, ...): its CLI name, task, and the capabilities it can use. */
public interface ModelFamily {
    /** The --family name. */
    String name();

    /** The --task it serves (vad, asr, tts, ...). */
    String task();

    /** Capabilities this family's graphs branch on; the engine intersects them with the backend's. */
    Set<Capability> uses();
}
