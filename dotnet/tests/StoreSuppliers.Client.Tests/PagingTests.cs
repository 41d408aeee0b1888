namespace StoreSuppliers.Tests;

/// <summary>ListAsync answers one page; ListAutoPagingAsync walks every page with the same filters and the previous nextCursor.</summary>
[Collection("service")]
public sealed class PagingTests(ServiceFixture svc)
{
    private const int Orders = 101;

    [Fact]
    public async Task AutoPaging_walks_more_than_100_supplier_orders_with_the_same_filters()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store);
        var made = new System.Collections.Concurrent.ConcurrentBag<string>();
        // Four at a time; respond-async so that no call waits for the dispatch job.
        await Parallel.ForEachAsync(Enumerable.Range(0, Orders), new ParallelOptions { MaxDegreeOfParallelism = 4 }, async (_, ct) =>
        {
            var order = await shop.PlaceOrderAsync(store, ct);
            var so = await store.Suppliers.Orders.SubmitAsync(shop.StoreId, order.Id, shop.GroupKey, options: new DispatchOptions { RespondAsync = true }, cancellationToken: ct);
            made.Add(so.Id);
        });

        var (client, handler) = RecordingHandler.ClientFor(svc.BaseUrl, svc.ApiKey);
        using (client)
        {
            var first = await client.Suppliers.Orders.ListAsync(shop.StoreId, new ListSupplierOrdersQuery { PageSize = 100, ContractModel = ContractModel.Standard });
            Assert.Equal((100, Orders, 100L, true), (first.Items.Count, (int)first.Pagination.TotalCount, first.Pagination.PageSize, first.Pagination.HasMore));
            Assert.NotNull(first.Pagination.NextCursor);

            handler.Sent.Clear();
            var walked = new List<string>();
            await foreach (var so in client.Suppliers.Orders.ListAutoPagingAsync(shop.StoreId, new ListSupplierOrdersQuery { PageSize = 100, ContractModel = ContractModel.Standard }))
            {
                walked.Add(so.Id);
            }
            Assert.Equal(made.OrderBy(x => x), walked.OrderBy(x => x));
            Assert.Equal(walked.Count, walked.Distinct().Count());
            var pages = handler.Sent.Select(s => s.Url.Query).ToList();
            Assert.Equal(2, pages.Count);
            Assert.All(pages, q => Assert.Contains("pageSize=100", q));
            Assert.All(pages, q => Assert.Contains("contractModel=standard", q));
            Assert.DoesNotContain("cursor=", pages[0]);
            Assert.Contains("cursor=" + Uri.EscapeDataString(first.Pagination.NextCursor!), pages[1]);
        }

        // Filters hold on every page: one order's supplier orders only.
        var some = made.First();
        var one = await store.Suppliers.Orders.GetAsync(shop.StoreId, some);
        var only = new List<SupplierOrder>();
        await foreach (var so in store.Suppliers.Orders.ListAutoPagingAsync(shop.StoreId, new ListSupplierOrdersQuery { OrderId = one.OrderId, PageSize = 1 })) only.Add(so);
        Assert.Equal(some, Assert.Single(only).Id);
    }

    [Fact]
    public async Task Cancelling_the_walk_stops_it_between_pages()
    {
        using var store = svc.Client();
        using var cts = new CancellationTokenSource();
        var seen = 0;
        var walk = async () =>
        {
            await foreach (var product in store.Suppliers.Products.SearchAutoPagingAsync(svc.StoreId, svc.ConnectionId, new SearchSupplierProductsQuery { PageSize = 5 }).WithCancellation(cts.Token))
            {
                if (++seen == 5) cts.Cancel();
            }
        };
        await Assert.ThrowsAnyAsync<OperationCanceledException>(walk);
        Assert.Equal(5, seen);
    }
}
