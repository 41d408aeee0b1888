namespace StoreSuppliers.Tests;

/// <summary>
/// Payments and refunds as a C# program calls them (issue 53): an order the provider never reported paid has nothing
/// to refund (InvalidStateException nothingToRefund) and shows no payments; an acknowledgement names the reason it
/// clears (noPaymentAttention when there is none).
/// </summary>
[Collection("service")]
public sealed class RefundTests(ServiceFixture svc)
{
    [Fact]
    public async Task An_order_not_paid_has_nothing_to_refund_and_no_attention_to_acknowledge()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var read = await store.Orders.GetAsync(shop.StoreId, order.Id);
        Assert.Equal(PaymentStatus.None, read.PaymentStatus);
        Assert.Equal(0, read.AmountRefundedMinor);
        Assert.Empty(read.ProviderPayments!);

        var none = await Assert.ThrowsAsync<InvalidStateException>(() => store.Orders.RefundAsync(shop.StoreId, order.Id, new RefundStoreOrderRequest { AmountMinor = 100, Reason = "Returned" }));
        Assert.Equal((409, "nothingToRefund"), (none.StatusCode, none.Code));
        var ack = await Assert.ThrowsAsync<InvalidStateException>(() => store.Orders.AcknowledgePaymentAttentionAsync(shop.StoreId, order.Id, new AcknowledgeStoreOrderPaymentAttentionRequest { Reason = AttentionReason.PaymentDisputed, Note = "Seen" }));
        Assert.Equal((409, "noPaymentAttention"), (ack.StatusCode, ack.Code));
    }
}
