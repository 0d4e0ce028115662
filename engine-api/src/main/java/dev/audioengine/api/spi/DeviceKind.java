package dev.audioengine.api.spi;

/** Used by {@code best}: discrete GPU before integrated GPU before CPU. */
public enum DeviceKind {
    /** A GPU with memory of its own. */
    DISCRETE_GPU(3),
    /** A GPU that shares the host's memory (an APU, a laptop's graphics). */
    INTEGRATED_GPU(2),
    /** A GPU shared with a virtual machine, as Vulkan reports one. */
    VIRTUAL_GPU(1),
    /** The host processor, including a GPU API's software device (Mesa's lavapipe), which Vulkan reports as a CPU. */
    CPU(0);

    private final int preference;

    DeviceKind(int preference) {
        this.preference = preference;
    }

    /**
     * How much {@code best} prefers this kind of device.
     *
     * @return 3 for a discrete GPU down to 0 for the CPU; higher wins, and between devices of one kind the backend
     *     order CUDA, HIP, Metal, Vulkan, CPU decides (on CPU devices the CPU backend wins)
     */
    public int preference() {
        return preference;
    }
}
