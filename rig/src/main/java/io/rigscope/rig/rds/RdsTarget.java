package io.rigscope.rig.rds;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * The series file's {@code rds:} section: the RDS for PostgreSQL instance a series runs against. With it, {@code run}
 * reads the instance's facts ({@code DescribeDBInstances}, {@code DescribeDBParameters}) and runs the Enhanced
 * Monitoring, Performance Insights, RDS log and CloudWatch collectors for the series' whole life (docs/rds.md).
 *
 * @param dbInstance the DB instance identifier ({@code rds.db_instance})
 * @param region the instance's region ({@code rds.region}), or null: the AWS SDK's region chain
 * @param endpoint every AWS call goes here instead of AWS's endpoints ({@code rds.endpoint}: tests, VPC
 *                 endpoints), or null
 * @param poll how often each RDS source is read ({@code rds.poll}), or null: each collector's own (Enhanced
 *             Monitoring 5 s, Performance Insights 10 s, the log 5 s, CloudWatch 60 s)
 * @param allowCrossAz true to run when the load host is in another availability zone than the instance
 *                     ({@code rds.allow_cross_az}; default false: refused)
 * @param livePrices true to price the instance through the AWS Price List API ({@code rds.live_prices},
 *                   {@code run --live-prices}) rather than the bundled table alone
 */
public record RdsTarget(String dbInstance, String region, URI endpoint, Duration poll, boolean allowCrossAz,
                        boolean livePrices) {

    public RdsTarget {
        Objects.requireNonNull(dbInstance, "dbInstance");
        if (poll != null && (poll.isNegative() || poll.isZero())) {
            throw new IllegalArgumentException("poll must be > 0");
        }
    }

    /** This section with the instance priced through the AWS Price List API ({@code run --live-prices}). */
    public RdsTarget withLivePrices() {
        return new RdsTarget(dbInstance, region, endpoint, poll, allowCrossAz, true);
    }
}
