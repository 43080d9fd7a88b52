package io.rigscope.rig.pricing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.rigscope.rig.pricing.PriceTable.RdsShape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PriceTableTest {

    private static PriceTable table(String json) throws IOException {
        return PriceTable.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static final String SMALL = """
            {"date": "2026-12-06", "source": "test",
             "rds_postgresql_instance_hourly_usd": [
               {"region": "us-east-1", "class": "db.m7g.large", "multi_az": false, "usd": 0.2, "source": "p"},
               {"region": "us-east-1", "class": "db.m7g.large", "multi_az": true, "usd": 0.4, "source": "p"}],
             "rds_storage_month_usd": [
               {"region": "us-east-1", "storage_type": "gp3", "gb_month_usd": 0.1, "iops_month_usd": 0.02,
                "throughput_mibps_month_usd": 0.08, "source": "p"}],
             "ec2_linux_instance_hourly_usd": [{"region": "us-east-1", "instance_type": "c7g.large", "usd": 0.07, "source": "p"}],
             "ebs_month_usd": [{"region": "us-east-1", "volume_type": "gp3", "gb_month_usd": 0.08, "source": "p"}]}
            """;

    @Test
    void theBundledTableNamesItsDateAndSourceAndEveryEntryIsPositive() {
        PriceTable prices = PriceTable.bundled();
        assertThat(prices.date()).matches("\\d{4}-\\d{2}-\\d{2}");
        assertThat(prices.source()).isNotBlank();
        assertThat(prices.rdsInstanceHourlyUsd("us-east-1", "db.t4g.micro", false)).hasValue(0.016);
        assertThat(prices.rdsInstanceSource("us-east-1", "db.t4g.micro", false).orElseThrow()).startsWith("https://");
        assertThat(prices.rdsStorageGbMonthUsd("us-east-1", "gp3")).hasValue(0.115);
    }

    @Test
    void aFigureNoSourceGaveIsEmptyNotGuessed() {
        PriceTable prices = PriceTable.bundled();
        assertThat(prices.rdsInstanceHourlyUsd("ap-south-1", "db.x9z.huge", false)).isEmpty();
        assertThat(prices.ec2InstanceHourlyUsd("mars-north-1", "c7g.large")).isEmpty();
        assertThat(prices.rdsThroughputMibpsMonthUsd("us-east-1", "gp3")).isEmpty();
    }

    @Test
    void lookupsIgnoreCase() throws IOException {
        PriceTable prices = table(SMALL);
        assertThat(prices.ec2InstanceHourlyUsd("US-EAST-1", "C7G.Large")).hasValue(0.07);
        assertThat(prices.ebsGbMonthUsd("us-east-1", "GP3")).hasValue(0.08);
    }

    @Test
    void gp3BillsOnlyIopsAndThroughputAboveTheBaselineWhichRisesAt400Gb() {
        assertThat(PriceTable.billableIops("gp3", 100, 3000)).isZero();
        assertThat(PriceTable.billableIops("gp3", 100, 5000)).isEqualTo(2000);
        assertThat(PriceTable.billableIops("gp3", 400, 12000)).isZero();
        assertThat(PriceTable.billableIops("io1", 100, 1000)).isEqualTo(1000);
        assertThat(PriceTable.billableIops("gp2", 100, 300)).isZero();
        assertThat(PriceTable.billableThroughputMibps("gp3", 100, 250)).isEqualTo(125);
        assertThat(PriceTable.billableThroughputMibps("gp3", 500, 500)).isZero();
    }

    @Test
    void anRdsInstancesHourlyCostAddsStorageIopsAndThroughputOverSevenHundredThirtyHours() throws IOException {
        PriceTable prices = table(SMALL);
        var cost = prices.rdsHourlyCost(new RdsShape("us-east-1", "db.m7g.large", false, "gp3", 100, 4000, 225))
                .orElseThrow();
        double expected = 0.2 + 100 * 0.1 / 730 + 1000 * 0.02 / 730 + 100 * 0.08 / 730;
        assertThat(cost.usd()).isCloseTo(expected, within(1e-9));
        assertThat(cost.basis()).startsWith("price table 2026-12-06: db.m7g.large us-east-1 Single-AZ $0.2/h")
                .contains("1000 billable IOPS").contains("100 billable MiB/s");
    }

    @Test
    void multiAzBillsTheStandbysStorageToo() throws IOException {
        PriceTable prices = table(SMALL);
        var cost = prices.rdsHourlyCost(new RdsShape("us-east-1", "db.m7g.large", true, "gp3", 100, 3000, 125))
                .orElseThrow();
        assertThat(cost.usd()).isCloseTo(0.4 + 2 * 100 * 0.1 / 730, within(1e-9));
    }

    @Test
    void aPriceSetLaterOverlaysTheTableAndNamesItsSource() throws IOException {
        PriceTable prices = table(SMALL).withRdsInstance("us-east-1", "db.r7g.large", false, 0.3, "AWS Price List API");
        assertThat(prices.rdsInstanceHourlyUsd("us-east-1", "db.r7g.large", false)).hasValue(0.3);
        assertThat(prices.rdsInstanceSource("us-east-1", "db.r7g.large", false)).contains("AWS Price List API");
        assertThat(table(SMALL).rdsInstanceHourlyUsd("us-east-1", "db.r7g.large", false)).as("the original").isEmpty();
    }

    @Test
    void aPriceListProductsOnDemandHourlyPriceIsRead() {
        String product = "{\"product\":{\"sku\":\"S\"},\"terms\":{\"OnDemand\":{\"S.T\":{\"priceDimensions\":"
                + "{\"S.T.R\":{\"unit\":\"Hrs\",\"pricePerUnit\":{\"USD\":\"0.1680000000\"}}}}}}}";
        assertThat(PriceTable.LivePrices.onDemandHourlyUsd(product)).hasValue(0.168);
        assertThat(PriceTable.LivePrices.onDemandHourlyUsd("{\"terms\":{}}")).isEmpty();
        assertThat(PriceTable.LivePrices.onDemandHourlyUsd("not json")).isEmpty();
    }

    @Test
    void aCostWithAnUnpricedPartIsEmptyAndNamesThePart() throws IOException {
        PriceTable prices = table(SMALL);
        var shape = new RdsShape("us-east-1", "db.r7g.large", false, "gp3", 100, 3000, 125);
        assertThat(prices.rdsHourlyCost(shape)).isEmpty();
        assertThat(prices.rdsMissingPrices(shape))
                .containsExactly("no known price for db.r7g.large Single-AZ PostgreSQL in us-east-1 (price table 2026-12-06)");
    }
}
