package dev.audioengine.api.capability;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * The user's switches: {@code +NAME} forces a capability on, {@code -NAME} forces it off.
 * effective = (backend verified ∪ forced on) ∩ model uses − forced off. Forcing on a capability
 * the backend has not verified is allowed (that is how a new backend is tried) and is reported.
 */
public record CapabilityOverrides(Set<Capability> on, Set<Capability> off) {
    public static final CapabilityOverrides NONE = new CapabilityOverrides(Set.of(), Set.of());

    public CapabilityOverrides {
        on = on.isEmpty() ? Set.of() : Set.copyOf(on);
        off = off.isEmpty() ? Set.of() : Set.copyOf(off);
        for (Capability c : on) {
            if (off.contains(c)) throw new IllegalArgumentException("capability " + c + " switched both on and off");
        }
    }

    /** Parses items like {@code -FUSED_ATTENTION} or {@code +BF16_WEIGHTS} (a bare name means +). */
    public static CapabilityOverrides parse(Collection<String> items) {
        EnumSet<Capability> on = EnumSet.noneOf(Capability.class), off = EnumSet.noneOf(Capability.class);
        for (String raw : items) {
            for (String item : raw.split(",")) {
                String s = item.trim();
                if (s.isEmpty()) continue;
                if (s.startsWith("-")) off.add(Capability.parse(s.substring(1)));
                else if (s.startsWith("+")) on.add(Capability.parse(s.substring(1)));
                else on.add(Capability.parse(s));
            }
        }
        return new CapabilityOverrides(on, off);
    }

    public Set<Capability> effective(Set<Capability> backendVerified, Set<Capability> modelUses) {
        EnumSet<Capability> e = EnumSet.noneOf(Capability.class);
        e.addAll(backendVerified);
        e.addAll(on);
        e.retainAll(modelUses);
        e.removeAll(off);
        return e;
    }
}
