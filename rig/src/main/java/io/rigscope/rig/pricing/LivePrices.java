package io.rigscope.rig.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.collectors.aws.AwsSettings;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.OptionalDouble;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.pricing.PricingClient;
import software.amazon.awssdk.services.pricing.model.Filter;
import software.amazon.awssdk.services.pricing.model.FilterType;
import software.amazon.awssdk.services.pricing.model.GetProductsResponse;

/**
 * On-demand prices read now from the AWS Price List API ({@code GetProducts}, at its {@code us-east-1} endpoint
 * whatever the region priced), for {@code run --live-prices}. Blocking; call from a command thread.
 *
 * <p>An RDS for PostgreSQL instance is the product of service {@code AmazonRDS} with {@code regionCode},
 * {@code instanceType}, {@code databaseEngine=PostgreSQL} and {@code deploymentOption} (Single-AZ or Multi-AZ) as
 * given; its price is the {@code OnDemand} term's dimension in {@code Hrs}, {@code pricePerUnit.USD}.
 */
public final class LivePrices {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LivePrices() {
    }

    /**
     * The instance's hourly price, or empty when the API lists no such product (or none with an hourly USD price).
     *
     * @param endpoint the Price List API's endpoint instead of AWS's (tests), or null
     * @throws IllegalStateException with one line when the API cannot be asked
     */
    public static OptionalDouble rdsInstanceHourlyUsd(AwsSettings credentialsFrom, URI endpoint, String region,
                                                      String dbInstanceClass, boolean multiAz) {
        AwsSettings aws = new AwsSettings(Region.US_EAST_1, endpoint, credentialsFrom.credentials());
        try (PricingClient pricing = aws.build(PricingClient.builder())) {
            GetProductsResponse resp = pricing.getProducts(b -> b.serviceCode("AmazonRDS").formatVersion("aws_v1")
                    .maxResults(10).filters(List.of(
                            match("regionCode", region), match("instanceType", dbInstanceClass),
                            match("databaseEngine", "PostgreSQL"),
                            match("deploymentOption", multiAz ? "Multi-AZ" : "Single-AZ"))));
            for (String product : resp.priceList()) {
                OptionalDouble usd = onDemandHourlyUsd(product);
                if (usd.isPresent()) {
                    return usd;
                }
            }
            return OptionalDouble.empty();
        } catch (SdkException e) {
            throw new IllegalStateException("live prices: the AWS Price List API did not answer GetProducts for "
                    + dbInstanceClass + " in " + region + ": " + oneLine(e.getMessage()));
        }
    }

    /** A Price List product document's on-demand price per hour in USD, or empty. */
    static OptionalDouble onDemandHourlyUsd(String productJson) {
        try {
            JsonNode terms = JSON.readTree(productJson).path("terms").path("OnDemand");
            for (JsonNode term : terms) {
                for (JsonNode dimension : term.path("priceDimensions")) {
                    String usd = dimension.path("pricePerUnit").path("USD").asText("");
                    if ("Hrs".equals(dimension.path("unit").asText()) && !usd.isEmpty()) {
                        double v = Double.parseDouble(usd);
                        if (v > 0) {
                            return OptionalDouble.of(v);
                        }
                    }
                }
            }
            return OptionalDouble.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    private static Filter match(String field, String value) {
        return Filter.builder().type(FilterType.TERM_MATCH).field(field).value(value).build();
    }

    private static String oneLine(String s) {
        return s == null ? "no reason given" : s.strip().replaceAll("\\s+", " ");
    }
}
