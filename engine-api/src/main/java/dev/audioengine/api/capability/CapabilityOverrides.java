package dev.audioengine.api.capability;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * The user's switches: {@code +NAME} forces a capability on, {@code -NAME} forces it off.
 * effective = (backend verified ∪ forced on) ∩ model uses − forced off. Forcing on a capability
 * the backend has not verified is allowed (that is how a new backend is tried) and is reported.
 *
 * @param on capabilities forced on; copied
 * @param off capabilities forced off; copied, disjoint from {@code on}
 */
public record CapabilityOverrides(Set<Capability> on, Set<Capability> off) {
    /** No switches: the backend's verified capabilities, as far as the model uses them. */
    public static final CapabilityOverrides NONE = new CapabilityOverrides(Set.of(), Set.of());

    /**
     * Copies the sets and checks that no capability is switched both ways.
     *
     * @param on capabilities forced on
     * @param off capabilities forced off
     * @throws IllegalArgumentException if a capability is in both sets
     */
    public CapabilityOverrides {
        on = on.isEmpty() ? Set.of() : Set.copyOf(on);
        off = off.isEmpty() ? Set.of() : Set.copyOf(off);
        for (Capability c : on) {
            if (off.contains(c)) throw new IllegalArgumentException("capability " + c + " switched both on and off");
        }
    }

    /**
     * Parses items like {@code -FUSED_ATTENTION} or {@code +BF16_WEIGHTS} (a bare name means +).
     *
     * @param items switches as given on the command line; an item may hold several separated by commas, and blanks
     *     are skipped
     * @return the overrides, equal to {@link #NONE} when there are no items
     * @throws IllegalArgumentException if a name is unknown or a capability is switched both on and off
     */
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

    /**
     * What a model may use: (backend verified ∪ forced on) ∩ model uses − forced off.
     *
     * @param backendVerified the capabilities the backend's conformance evidence covers
     * @param modelUses the capabilities the model has code paths for
     * @return a new mutable set
     */
    public Set<Capability> effective(Set<Capability> backendVerified, Set<Capability> modelUses) {
        EnumSet<Capability> e = EnumSet.noneOf(Capability.class);
        e.addAll(backendVerified);
        e.addAll(on);
        e.retainAll(modelUses);
        e.removeAll(off);
        return e;
    }
}
