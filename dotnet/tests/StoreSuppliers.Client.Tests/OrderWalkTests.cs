using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>Connect, browse, import, link, order, submit, a pause from a supplier fault, retry, pay.</summary>
public sealed class OrderWalkTests(ServiceFixture svc) : FaultTests(svc)
{
    [Fact]
    public async Task Connect_browse_import_link_order_submit_pause_retry_and_pay()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);

        // Connect and browse.
        var catalogue = await store.Suppliers.Connections.ListCatalogueAsync(shop.StoreId);
        Assert.Contains(catalogue, c => c.Key == "sandbox");
        var connections = await store.Suppliers.Connections.ListAsync(shop.StoreId);
        var connection = Assert.Single(connections);
        Assert.Equal((shop.ConnectionId, "sandbox", SupplierConnectionMode.Live, true), (connection.Id, connection.SupplierKey, connection.Mode, connection.Enabled));
        var product = await store.Suppliers.Products.GetAsync(shop.StoreId, shop.ConnectionId, shop.SupplierProductId);
        Assert.Equal(shop.SupplierProductId, product.Id);
        Assert.True(product.Variants[0].Cost.AmountMinor > 0);

        // The import made a store product linked to the supplier's.
        var links = await store.Suppliers.Links.ListAsync(shop.StoreId);
        var link = Assert.Single(links.Items);
        Assert.Equal((shop.ProductId, shop.SupplierProductId), (link.ProductId, link.SupplierProductId));

        // An order, and its supplier part sent while the supplier refuses the next order.
        var order = await shop.PlaceOrderAsync(store);
        Assert.Contains(order.FulfilmentGroups, g => g.GroupKey == shop.GroupKey);
        await Svc.Sandbox.FaultsAsync(new { refuseNext = new { count = 1, message = "Warehouse closed for inventory" } });
        var paused = await Assert.ThrowsAsync<SupplierOrderPausedException>(() => store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey));
        Assert.Equal(ReviewReason.SupplierRefused, paused.ReviewReason);
        Assert.True(paused.ReviewReason.IsKnown);
        Assert.True(paused.Retryable);
        Assert.Contains("Warehouse closed", paused.ReviewMessage);
        Assert.Equal(SupplierOrderStatus.NeedsReview, paused.SupplierOrder.Status);
        Assert.Equal(order.Id, paused.SupplierOrder.OrderId);

        // The pause is on the record too, not only in the exception.
        var reread = await store.Suppliers.Orders.GetAsync(shop.StoreId, paused.SupplierOrder.Id);
        Assert.Equal((SupplierOrderStatus.NeedsReview, (ReviewReason?)ReviewReason.SupplierRefused), (reread.Status, reread.ReviewReason));

        // Retry creates it at the supplier; pay pays it there once.
        var retried = await store.Suppliers.Orders.RetryAsync(shop.StoreId, paused.SupplierOrder.Id);
        Assert.Equal(SupplierOrderStatus.Submitted, retried.Status);
        Assert.Equal(SupplierOrderPaymentStatus.Unpaid, retried.Payment.Status);
        var paid = await store.Suppliers.Orders.PayAsync(shop.StoreId, retried.Id);
        Assert.Equal(SupplierOrderPaymentStatus.Paid, paid.Payment.Status);
        Assert.Equal(SupplierOrderStatus.Confirmed, paid.Status);
        Assert.Null(paid.ReviewReason);

        // What the supplier really holds: one order under the service's number, paid once.
        var received = await Svc.Sandbox.ReceivedAsync();
        Assert.Equal(1, (int)received["ordersByNumber"]![paid.SupplierOrderNumber]!);
        Assert.Single(received["payments"]!.AsArray(), p => (string)p!["orderNumber"]! == paid.SupplierOrderNumber);

        // The store order now carries its supplier order.
        var withParts = await store.Orders.GetAsync(shop.StoreId, order.Id);
        Assert.Contains(withParts.SupplierOrders!, so => so.Id == paid.Id && so.Payment.Status == SupplierOrderPaymentStatus.Paid);
    }

    [Fact]
    public async Task RespondAsync_returns_the_queued_order_at_once_and_does_not_throw()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);
        var order = await shop.PlaceOrderAsync(store);
        await Svc.Sandbox.FaultsAsync(new { refuseNext = new { count = 1, message = "Refused later" } });
        var queued = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, options: new DispatchOptions { RespondAsync = true });
        Assert.Equal(SupplierOrderStatus.Queued, queued.Status);
        // The job pauses it afterwards: a program sees that by reading it again.
        var deadline = DateTime.UtcNow.AddSeconds(60);
        SupplierOrder current;
        do
        {
            await Task.Delay(200);
            current = await store.Suppliers.Orders.GetAsync(shop.StoreId, queued.Id);
        }
        while (current.Status == SupplierOrderStatus.Queued && DateTime.UtcNow < deadline);
        Assert.Equal(SupplierOrderStatus.NeedsReview, current.Status);
    }

    [Fact]
    public async Task Submit_twice_gives_one_supplier_order()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var first = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, new SubmitOrderPartRequest { PayNow = true });
        var second = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, new SubmitOrderPartRequest { PayNow = true });
        Assert.Equal(first.Id, second.Id);
        Assert.Equal(SupplierOrderPaymentStatus.Paid, second.Payment.Status);
        var received = await Svc.Sandbox.ReceivedAsync();
        Assert.Equal(1, (int)received["ordersByNumber"]![first.SupplierOrderNumber]!);
    }
    [Fact]
    public async Task Profit_report_sums_the_parts_own_profit_in_the_stores_currency()
    {
        using var store = Svc.Client();
        var shop = await Shop.OpenAsync(Svc, store);
        var order = await shop.PlaceOrderAsync(store);
        var sent = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey);
        var profit = (await store.Suppliers.Orders.GetAsync(shop.StoreId, sent.Id)).Profit!;
        var today = DateTime.UtcNow.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
        var report = await store.Suppliers.Reports.GetProfitAsync(shop.StoreId, new GetProfitReportQuery { From = today, To = today, GroupBy = GroupBy.Day });
        Assert.Equal((today, 1L, 1L, profit.RevenueMinor, profit.LandedCostMinor, 0L), (report.From, report.Totals.Orders, report.Totals.Parts, (long?)report.Totals.RevenueMinor, (long?)report.Totals.LandedCostMinor, report.Totals.IncompleteParts));
        var day = Assert.Single(report.Items);
        Assert.Equal((today, profit.ResultMinor), (day.Key, (long?)day.ResultMinor));
        // Refunds and supplier credits are figures of their own (none here); the order's profit carries its refunds too.
        Assert.Equal((0L, 0L), (report.Totals.RefundMinor, report.Totals.SupplierCreditMinor));
        await Assert.ThrowsAsync<InvalidRequestException>(() => store.Suppliers.Reports.GetProfitAsync(shop.StoreId, new GetProfitReportQuery { From = today, To = "2000-01-01" }));
    }
}
