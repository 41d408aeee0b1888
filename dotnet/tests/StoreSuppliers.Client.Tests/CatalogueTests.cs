namespace StoreSuppliers.Tests;

/// <summary>Preview, a small import answered at once, a large one answered 202 with a job, and the links it leaves.</summary>
[Collection("service")]
public sealed class CatalogueTests(ServiceFixture svc)
{
    [Fact]
    public async Task Preview_is_free_a_small_import_answers_products_and_a_large_one_a_job_to_poll()
    {
        using var store = svc.Client();
        var shop = await Shop.OpenAsync(svc, store);
        var page = await store.Suppliers.Products.SearchAsync(shop.StoreId, shop.ConnectionId, new SearchSupplierProductsQuery { PageSize = 60 });
        var others = page.Items.Where(p => p.Id != shop.SupplierProductId).ToList();

        var credits = (await store.ApiKey.GetCurrentAsync()).Credits.Available;
        var preview = await store.Suppliers.Imports.PreviewAsync(shop.StoreId, shop.ConnectionId, new PreviewImportRequest
        {
            Products = { new ImportSupplierProductsRequestProduct { SupplierProductId = others[0].Id } },
        });
        Assert.Equal([others[0].Id], preview.Items.Select(i => i.SupplierProductId));
        Assert.Empty(preview.Errors);
        Assert.Equal(credits, (await store.ApiKey.GetCurrentAsync()).Credits.Available);

        // More than 50 products: the service answers 202 with a job, which the client returns as Accepted.
        var many = new ImportSupplierProductsRequest();
        many.Products.AddRange(others.Take(51).Select(p => new ImportSupplierProductsRequestProduct { SupplierProductId = p.Id }));
        var answer = await store.Suppliers.Imports.ImportAsync(shop.StoreId, shop.ConnectionId, many);
        Assert.Equal(202, answer.StatusCode);
        Assert.Null(answer.Result);
        var job = answer.Accepted!;
        Assert.Equal(51, job.Total);

        var deadline = DateTime.UtcNow.AddSeconds(90);
        while (job.Status != ImportJobStatus.Completed && job.Status != ImportJobStatus.Failed && DateTime.UtcNow < deadline)
        {
            await Task.Delay(250);
            job = await store.Suppliers.Imports.GetJobAsync(shop.StoreId, job.Id);
        }
        Assert.Equal(ImportJobStatus.Completed, job.Status);
        Assert.Equal(51, job.CreatedProductIds.Count);
        var jobs = new List<string>();
        await foreach (var j in store.Suppliers.Imports.ListJobsAutoPagingAsync(shop.StoreId, new ListImportJobsQuery { PageSize = 1 })) jobs.Add(j.Id);
        Assert.Contains(job.Id, jobs);

        // The links it left, then one synced and one removed; the product stays the store's own.
        var links = new List<ProductLink>();
        await foreach (var link in store.Suppliers.Links.ListAutoPagingAsync(shop.StoreId, new ListProductLinksQuery { PageSize = 20 })) links.Add(link);
        Assert.Equal(52, links.Count);
        var synced = await store.Suppliers.Links.SyncAsync(shop.StoreId, links[0].Id);
        Assert.NotNull(synced.LastSyncAt);
        await store.Suppliers.Links.DeleteAsync(shop.StoreId, links[1].Id);
        var left = await store.Suppliers.Links.ListAsync(shop.StoreId, new ListProductLinksQuery { ProductId = links[1].ProductId });
        Assert.Empty(left.Items);
        Assert.Equal(links[1].ProductId, (await store.Products.GetAsync(shop.StoreId, links[1].ProductId)).Id);
    }
}
