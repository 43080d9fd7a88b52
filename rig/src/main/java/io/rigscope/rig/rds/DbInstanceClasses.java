package io.rigscope.rig.rds;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * vCPUs and memory of an RDS DB instance class, which {@code DescribeDBInstances} does not return. From the RDS
 * user guide's "Hardware specifications for DB instance classes": within the current general purpose (m), memory
 * optimized (r) and compute optimized (c) families a size's vCPUs are fixed ({@code large} 2, {@code xlarge} 4,
 * {@code Nxlarge} 4N) and memory is 4 (m), 8 (r) or 2 (c) GiB per vCPU; the burstable t3/t4g sizes are listed.
 * Anything else is unknown (empty), never guessed.
 */
final class DbInstanceClasses {

    /**
     * A class's size.
     *
     * @param vcpus virtual CPUs
     * @param memoryGib memory, GiB
     */
    public record Size(int vcpus, double memoryGib) {
    }

    private static final Map<String, Size> BURSTABLE = Map.of(
            "micro", new Size(2, 1), "small", new Size(2, 2), "medium", new Size(2, 4),
            "large", new Size(2, 8), "xlarge", new Size(4, 16), "2xlarge", new Size(8, 32));

    private DbInstanceClasses() {
    }

    /** The size of {@code db.FAMILY.SIZE} (e.g. {@code db.m7g.large}: 2 vCPUs, 8 GiB), or empty when not known. */
    public static Optional<Size> of(String dbInstanceClass) {
        if (dbInstanceClass == null) {
            return Optional.empty();
        }
        String[] parts = dbInstanceClass.toLowerCase(Locale.ROOT).split("\\.");
        if (parts.length != 3 || !parts[0].equals("db") || parts[1].length() < 2) {
            return Optional.empty();
        }
        String family = parts[1];
        String size = parts[2];
        if (family.equals("t3") || family.equals("t4g")) {
            return Optional.ofNullable(BURSTABLE.get(size));
        }
        // m5, m6g, m6i, m6gd, m7g, m7i, m8g, r5, r6g, r6i, r7g, r7i, r8g, c6gd, ...: letter, generation, suffix
        if (!family.matches("[mrc][5-8][a-z]*") || family.matches("r5b|.*x.*|.*z.*|.*n.*")) {
            return Optional.empty();
        }
        int vcpus;
        if (size.equals("large")) {
            vcpus = 2;
        } else if (size.equals("xlarge")) {
            vcpus = 4;
        } else if (size.matches("[0-9]+xlarge")) {
            vcpus = 4 * Integer.parseInt(size.substring(0, size.length() - "xlarge".length()));
        } else {
            return Optional.empty();
        }
        double perVcpu = switch (family.charAt(0)) {
            case 'm' -> 4;
            case 'r' -> 8;
            default -> 2;
        };
        return Optional.of(new Size(vcpus, vcpus * perVcpu));
    }
}
