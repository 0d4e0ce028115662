package dev.audioengine.models.silero;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.models.ModelFamily;

import java.util.Set;

/** The silero_vad family: voice activity detection, no optional capabilities. */
public final class SileroVadFamily implements ModelFamily {
    @Override public String name() { return "silero_vad"; }

    @Override public String task() { return "vad"; }

    @Override public Set<Capability> uses() { return Set.of(); }
}
