package dev.audioengine.api.spi;

/** Used by {@code best}: discrete GPU before integrated GPU before CPU. */
public enum DeviceKind {
    DISCRETE_GPU(3),
    INTEGRATED_GPU(2),
    VIRTUAL_GPU(1),
    CPU(0);

    private final int preference;

    DeviceKind(int preference) {
        this.preference = preference;
    }

    public int preference() {
        return preference;
    }
}
