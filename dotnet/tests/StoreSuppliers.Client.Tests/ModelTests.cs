using System.Text.Json;

namespace StoreSuppliers.Tests;

/// <summary>Extensible enums keep values a newer service may send; the review reasons of the service are all known.</summary>
public sealed class ModelTests
{
    [Fact]
    public void ReviewReason_knows_every_reason_of_the_service_and_keeps_others_as_they_are()
    {
        string[] spec =
        [
            "insufficientBalance", "variantUnavailable", "destinationUnsupported", "costAboveLimit", "costChanged",
            "customerPaymentPending", "customerPaymentNotSettled", "connectionUnhealthy", "supplierRefused",
            "connectionMissing", "supplierAlreadyShipped", "testMode", "customerCaptureFailed", "currencyMismatch",
            "orderNumberUnverifiable", "exchangeRateUnavailable",
        ];
        Assert.Equal(spec, ReviewReason.Known.Select(r => r.ToString()));
        Assert.All(spec, s => Assert.True(new ReviewReason(s).IsKnown));
        ReviewReason future = "supplierOnHoliday";
        Assert.False(future.IsKnown);
        Assert.Equal("supplierOnHoliday", future.ToString());
        Assert.Equal(ReviewReason.CostChanged, (ReviewReason)"costChanged");
        Assert.NotEqual(ReviewReason.CostChanged, future);
    }

    [Fact]
    public void An_unknown_value_from_the_service_reads_and_writes_back_unchanged()
    {
        var json = """{"status":"needsReview","reviewReason":"supplierOnHoliday","retryable":true}""";
        var order = JsonSerializer.Deserialize<SupplierOrder>(json)!;
        Assert.Equal(SupplierOrderStatus.NeedsReview, order.Status);
        Assert.Equal("supplierOnHoliday", order.ReviewReason!.Value.ToString());
        Assert.Contains("\"reviewReason\":\"supplierOnHoliday\"", JsonSerializer.Serialize(order));
    }
}
