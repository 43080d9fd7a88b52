package io.rigscope.rig.cli.cloud;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cloud.account.AwsAccess;
import io.rigscope.rig.pricing.PriceTable;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code rigscope cloud check}: what rigscope left in a region, and what it costs by the hour. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"List everything tagged rigscope:* in the region (Resource Groups Tagging API), the rigscope "
            + "stacks, expiry schedules and roles, each with its hourly cost (the bundled price table).",
            "Exit 0: nothing remains (a kept evidence bucket is listed but does not count). Exit 1: something remains, "
            + "named. Exit 2: could not look (no credentials, access denied, endpoint unreachable), said in one line."})
final class CloudCheckCommand implements Callable<Integer> {

    /** Exit code: something rigscope made remains. */
    public static final int REMAINS = 1;
    /** Exit code: the account could not be looked at. */
    public static final int COULD_NOT_LOOK = 2;

    @Mixin
    AwsOptions aws;

    @Option(names = "--series", paramLabel = "ID", description = "Only this series' resources (default: every series).")
    String series;

    @Override
    public Integer call() {
        var access = aws.access(null);
        PriceTable prices = PriceTable.bundled();
        AwsAccess.Inventory.Result result;
        try {
            result = new AwsAccess.Inventory(access, prices).look(series);
        } catch (AwsAccess.CouldNotLook e) {
            System.err.println("rigscope cloud check: COULD NOT LOOK in " + access.region().id() + ": " + e.getMessage());
            return COULD_NOT_LOOK;
        }
        System.out.print(render(result, prices));
        return result.remaining().isEmpty() ? ExitCodes.OK : REMAINS;
    }

    /** The console lines for {@code result}. */
    static String render(AwsAccess.Inventory.Result result, PriceTable prices) {
        StringBuilder b = new StringBuilder();
        double known = 0;
        int unknown = 0;
        for (AwsAccess.Inventory.Found f : result.found()) {
            String price = f.hourlyUsd() == null ? "unknown USD/h (" + f.why() + ")"
                    : String.format(Locale.ROOT, "%.4f USD/h", f.hourlyUsd());
            b.append(String.format(Locale.ROOT, "%-7s %-30s series %-24s %s  %s%s%n", f.kept() ? "KEPT" : "REMAINS",
                    f.kind(), f.series(), price, f.arn(), f.expiresAt() == null ? "" : "  expires " + f.expiresAt()));
            if (!f.kept()) {
                if (f.hourlyUsd() == null) {
                    unknown++;
                } else {
                    known += f.hourlyUsd();
                }
            }
        }
        int remaining = result.remaining().size();
        int kept = result.found().size() - remaining;
        if (remaining == 0) {
            b.append(String.format(Locale.ROOT, "clean: nothing rigscope made remains in %s%s%n", result.region(),
                    kept == 0 ? "" : " (" + kept + " evidence bucket" + (kept == 1 ? "" : "s") + " kept on purpose)"));
        } else {
            b.append(String.format(Locale.ROOT, "%d remain%s in %s, %.4f USD/hour%s (price table %s)%n", remaining,
                    remaining == 1 ? "s" : "", result.region(), known,
                    unknown == 0 ? "" : " plus " + unknown + " of unknown price", prices.date()));
        }
        return b.toString();
    }
}
